package cap_test

import (
	"errors"
	"fmt"
	"time"

	capxml "github.com/vokter-go/vokter/cap"
)

const doc = `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>KSTO1055887203</identifier>
  <sender>KSTO@NWS.NOAA.GOV</sender>
  <sent>2003-06-17T14:57:00-07:00</sent>
  <status>Actual</status>
  <msgType>Alert</msgType>
  <scope>Public</scope>
  <info>
    <category>Met</category>
    <event>SEVERE THUNDERSTORM</event>
    <urgency>Immediate</urgency>
    <severity>Severe</severity>
    <certainty>Observed</certainty>
    <expires>2003-06-17T16:00:00-07:00</expires>
    <area>
      <areaDesc>Tuolumne County</areaDesc>
      <polygon>38.47,-120.14 38.34,-119.95 38.52,-119.74 38.62,-119.89 38.47,-120.14</polygon>
    </area>
  </info>
</alert>`

func ExampleParse() {
	a, err := capxml.Parse([]byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	in := a.Infos[0]
	fmt.Println(a.Version, a.Sender, a.Sent)
	fmt.Println(in.Event, in.Severity, len(in.Areas[0].Polygons[0]), "points")
	fmt.Println("expired at 15:00:", a.Expired(time.Date(2003, 6, 17, 22, 0, 0, 0, time.UTC)))

	// A broken document: every broken rule is reported.
	_, err = capxml.Parse([]byte(`<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>no spaces allowed</identifier><sender>x</sender><sent>2003-06-17T14:57:00Z</sent>
  <status>Actual</status><msgType>Alert</msgType><scope>Private</scope></alert>`))
	fmt.Println(errors.Is(err, capxml.ErrInvalid))
	for _, ve := range capxml.ValidationErrors(err) {
		fmt.Println(ve)
	}
	// Output:
	// 1.2 KSTO@NWS.NOAA.GOV 2003-06-17 14:57:00 -0700 -0700
	// SEVERE THUNDERSTORM Severe 5 points
	// expired at 15:00: false
	// true
	// cap: alert.sent: dateTime format: "2003-06-17T14:57:00Z"
	// cap: alert.identifier: contains a space, comma, < or &: "no spaces allowed"
	// cap: alert.addresses: scope Private needs addresses
}

func ExampleParseLenient() {
	a, problems, err := capxml.ParseLenient([]byte(`<alert>
  <identifier>42</identifier><sender>ops@example.org</sender>
  <sent>2024-05-01T10:00:00Z</sent><status>actual</status><msgType>Alert</msgType><scope>Public</scope>
  <info><category>Met</category><event>Flood</event><urgency>Expected</urgency>
    <severity>Moderate</severity><certainty>Likely</certainty>
    <area><areaDesc>River</areaDesc><polygon>1,1 1,2 2,2</polygon></area></info>
</alert>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Status, a.Sent, a.Infos[0].Areas[0].Polygons[0])
	for _, p := range problems {
		fmt.Println(p)
	}
	// Output:
	// Actual 2024-05-01 10:00:00 +0000 UTC [{1 1} {1 2} {2 2} {1 1}]
	// cap: alert: not in a CAP namespace (read as CAP 1.2)
	// cap: alert.sent: dateTime format ("Z" read as -00:00): "2024-05-01T10:00:00Z"
	// cap: alert.status: enumeration value miswritten (corrected to Actual): "actual"
	// cap: alert.info[0].area[0].polygon[0]: polygon not closed (closed by repeating the first point)
}

func ExampleMarshal() {
	alt := 0.0
	a := &capxml.Alert{
		Version:    capxml.Version12,
		Identifier: "EX-1",
		Sender:     "ops@example.org",
		Sent:       time.Date(2024, 5, 1, 10, 0, 0, 0, time.FixedZone("", 2*3600)),
		Status:     capxml.StatusExercise,
		MsgType:    capxml.MsgTypeAlert,
		Scope:      capxml.ScopePublic,
		Infos: []capxml.Info{{
			Category:  []capxml.Category{capxml.CategoryFire},
			Event:     "Forest fire",
			Urgency:   capxml.UrgencyImmediate,
			Severity:  capxml.SeverityExtreme,
			Certainty: capxml.CertaintyObserved,
			Areas: []capxml.Area{{
				AreaDesc: "North ridge",
				Circles:  []capxml.Circle{{Center: capxml.Point{Lat: 46.5, Lon: 7.25}, Radius: 5}},
				Geocodes: []capxml.NamedValue{{ValueName: "NUTS3", Value: "CH012"}},
				Altitude: &alt,
			}},
		}},
	}
	out, err := capxml.Marshal(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
	//   <identifier>EX-1</identifier>
	//   <sender>ops@example.org</sender>
	//   <sent>2024-05-01T10:00:00+02:00</sent>
	//   <status>Exercise</status>
	//   <msgType>Alert</msgType>
	//   <scope>Public</scope>
	//   <info>
	//     <category>Fire</category>
	//     <event>Forest fire</event>
	//     <urgency>Immediate</urgency>
	//     <severity>Extreme</severity>
	//     <certainty>Observed</certainty>
	//     <area>
	//       <areaDesc>North ridge</areaDesc>
	//       <circle>46.5,7.25 5</circle>
	//       <geocode>
	//         <valueName>NUTS3</valueName>
	//         <value>CH012</value>
	//       </geocode>
	//       <altitude>0</altitude>
	//     </area>
	//   </info>
	// </alert>
}
