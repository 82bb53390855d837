// Command capquery reads a few CAP alerts, filters them with a query whose
// parameter names are CAP element names, and writes the hits as an Atom
// index and a KML document. It needs no internet.
//
//	go run ./examples/capquery
//	go run ./examples/capquery -q 'category=Met&bbox=-130,20,-60,60'
package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"time"

	capxml "github.com/vokter-go/vokter/cap"
	"github.com/vokter-go/vokter/kml"
)

//go:embed alerts/*.cap
var samples embed.FS

func main() {
	query := flag.String("q", "severity=Severe&severity=Extreme", "query: CAP element names as URL parameters")
	out := flag.String("out", os.TempDir(), "folder for alerts.atom and alerts.kml")
	flag.Parse()
	if err := run(*query, *out); err != nil {
		log.Fatal(err)
	}
}

func run(rawQuery, out string) error {
	values, err := url.ParseQuery(rawQuery)
	if err != nil {
		return err
	}
	q, err := capxml.ParseQuery(values)
	if err != nil {
		return err
	}
	names, err := samples.ReadDir("alerts")
	if err != nil {
		return err
	}
	var alerts []*capxml.Alert
	for _, e := range names {
		data, err := samples.ReadFile("alerts/" + e.Name())
		if err != nil {
			return err
		}
		// Strict first: a producer wants to know what it got wrong.
		a, err := capxml.Parse(data)
		if err != nil {
			var problems []*capxml.ValidationError
			if a, problems, err = capxml.ParseLenient(data); err != nil {
				fmt.Printf("%-16s unreadable: %v\n", e.Name(), err)
				continue
			}
			fmt.Printf("%-16s not valid CAP, salvaged: %v\n", e.Name(), errors.Join(asErrors(problems)...))
		}
		alerts = append(alerts, a)
		fmt.Printf("%-16s CAP %s %-8s %-9s %q\n", e.Name(), a.Version, a.MsgType, a.Infos[0].Severity, a.Infos[0].Event)
	}

	hits := capxml.Filter(alerts, q)
	fmt.Printf("\n%d of %d alerts match %s\n", len(hits), len(alerts), q.Encode().Encode())

	var atom, doc bytes.Buffer
	err = capxml.WriteAtom(&atom, hits, &capxml.AtomOptions{
		Title: "Alerts matching " + rawQuery, ID: "urn:vokter:example:capquery", Updated: time.Now(),
	})
	if err != nil {
		return err
	}
	if err := kml.Write(&doc, hits, &kml.Options{Name: "Alerts matching " + rawQuery}); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"alerts.atom": atom.Bytes(), "alerts.kml": doc.Bytes()} {
		path := filepath.Join(out, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s (%d bytes)\n", path, len(data))
	}
	return nil
}

func asErrors(problems []*capxml.ValidationError) []error {
	errs := make([]error, len(problems))
	for i, p := range problems {
		errs[i] = p
	}
	return errs
}
