package kml_test

import (
	"fmt"
	"os"
	"time"

	capxml "github.com/vokter-go/vokter/cap"
	"github.com/vokter-go/vokter/kml"
)

func ExampleWrite() {
	alert := &capxml.Alert{
		Identifier: "fire-1", Sender: "rfs@example.org",
		Sent: time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC),
		Infos: []capxml.Info{{
			Event: "Bush Fire", Severity: capxml.SeverityExtreme,
			Areas: []capxml.Area{{AreaDesc: "Ridge", Polygons: []capxml.Polygon{{
				{Lat: -33.7, Lon: 150.3}, {Lat: -33.6, Lon: 150.3}, {Lat: -33.6, Lon: 150.4}, {Lat: -33.7, Lon: 150.3},
			}}}},
		}},
	}
	// A refreshing document: Google Earth reloads the query every minute.
	err := kml.Write(os.Stdout, []*capxml.Alert{alert}, &kml.Options{
		Name: "Extreme alerts", RefreshURL: "https://example.org/cap2kml?severity=Extreme", RefreshInterval: time.Minute,
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <kml xmlns="http://www.opengis.net/kml/2.2">
	//   <Document>
	//     <name>Extreme alerts</name>
	//     <NetworkLink>
	//       <name>Extreme alerts</name>
	//       <open>1</open>
	//       <Link>
	//         <href>https://example.org/cap2kml?severity=Extreme</href>
	//         <refreshMode>onInterval</refreshMode>
	//         <refreshInterval>60</refreshInterval>
	//       </Link>
	//     </NetworkLink>
	//   </Document>
	// </kml>
}
