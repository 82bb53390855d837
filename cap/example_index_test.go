package cap_test

import (
	"fmt"
	"os"
	"time"

	capxml "github.com/vokter-go/vokter/cap"
)

func ExampleParseIndex() {
	data := []byte(`<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
  <id>https://alerts.example.org/feed</id>
  <title>Example alerts</title>
  <updated>2025-08-22T17:33:43Z</updated>
  <entry>
    <id>https://alerts.example.org/a/1</id>
    <title>Flood Warning</title>
    <updated>2025-08-22T12:33:00-05:00</updated>
    <link rel="alternate" href="a/1.cap"/>
    <cap:event>Flood Warning</cap:event>
    <cap:severity>Severe</cap:severity>
  </entry>
</feed>`)
	idx, err := capxml.ParseIndex(data, "https://alerts.example.org/feed")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range idx.Entries {
		fmt.Println(idx.Format, e.Links, e.Summary.Event, e.Summary.Severity)
	}
	// Output:
	// atom [https://alerts.example.org/a/1.cap] Flood Warning Severe
}

func ExampleWriteAtom() {
	alert := &capxml.Alert{
		Identifier: "KSTO1055887203", Sender: "KSTO@NWS.NOAA.GOV",
		Sent:   time.Date(2003, 6, 17, 14, 57, 0, 0, time.FixedZone("", -7*3600)),
		Status: capxml.StatusActual, MsgType: capxml.MsgTypeAlert, Scope: capxml.ScopePublic,
	}
	err := capxml.WriteAtom(os.Stdout, []*capxml.Alert{alert}, &capxml.AtomOptions{
		Title: "Sacramento alerts", ID: "https://example.org/cap2atom",
		Updated: time.Date(2003, 6, 17, 22, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <feed xmlns="http://www.w3.org/2005/Atom">
	//   <id>https://example.org/cap2atom</id>
	//   <title>Sacramento alerts</title>
	//   <updated>2003-06-17T22:00:00Z</updated>
	//   <author>
	//     <name>vokter</name>
	//   </author>
	//   <generator>vokter</generator>
	//   <entry>
	//     <id>urn:uuid:aaf37261-d0a0-55df-a555-1ad3119b6988</id>
	//     <title>KSTO1055887203</title>
	//     <updated>2003-06-17T14:57:00-07:00</updated>
	//     <published>2003-06-17T14:57:00-07:00</published>
	//     <author>
	//       <name>KSTO@NWS.NOAA.GOV</name>
	//     </author>
	//     <content type="application/cap+xml">
	//       <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
	//         <identifier>KSTO1055887203</identifier>
	//         <sender>KSTO@NWS.NOAA.GOV</sender>
	//         <sent>2003-06-17T14:57:00-07:00</sent>
	//         <status>Actual</status>
	//         <msgType>Alert</msgType>
	//         <scope>Public</scope>
	//       </alert>
	//     </content>
	//   </entry>
	// </feed>
}
