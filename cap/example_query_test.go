package cap_test

import (
	"fmt"
	"net/url"
	"time"

	capxml "github.com/vokter-go/vokter/cap"
)

func ExampleParseQuery() {
	q, err := capxml.ParseQuery(url.Values{
		"severity": {"severe,EXTREME"},
		"bbox":     {"-10,35,30,60"},
		"event":    {"flood"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q.Encode().Encode())

	_, err = capxml.ParseQuery(url.Values{"severity": {"Hgh"}})
	fmt.Println(err)
	// Output:
	// bbox=-10%2C35%2C30%2C60&event=flood&severity=Extreme&severity=Severe
	// cap: bad query: severity=Hgh: not a severity value
}

func ExampleFilter() {
	sent := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	alerts := []*capxml.Alert{
		{Identifier: "flood-1", Sent: sent, Infos: []capxml.Info{{
			Event: "River Flood Warning", Severity: capxml.SeveritySevere,
			Areas: []capxml.Area{{AreaDesc: "Rhine valley", Polygons: []capxml.Polygon{{
				{Lat: 47.5, Lon: 7.5}, {Lat: 48, Lon: 7.5}, {Lat: 48, Lon: 8}, {Lat: 47.5, Lon: 7.5},
			}}}},
		}}},
		{Identifier: "fire-1", Sent: sent, Infos: []capxml.Info{{
			Event: "Bush Fire", Severity: capxml.SeverityExtreme,
			Areas: []capxml.Area{{AreaDesc: "Blue Mountains", Circles: []capxml.Circle{{
				Center: capxml.Point{Lat: -33.7, Lon: 150.3}, Radius: 20,
			}}}},
		}}},
	}
	q, _ := capxml.ParseQuery(url.Values{"severity": {"Severe", "Extreme"}, "bbox": {"-10,35,30,60"}})
	for _, a := range capxml.Filter(alerts, q) {
		fmt.Println(a.Identifier)
	}
	// Output:
	// flood-1
}
