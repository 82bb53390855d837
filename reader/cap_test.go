package reader

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

func TestCAPReader(t *testing.T) {
	t.Parallel()
	const alert = `<?xml version="1.0" encoding="ISO-8859-1"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
<identifier>MF-1</identifier><sender>meteo@example.fr</sender><sent>2024-01-01T10:00:00+01:00</sent>
<status>Actual</status><msgType>Alert</msgType><scope>Public</scope>
<info><category>Met</category><event>Tempête</event><urgency>Expected</urgency><severity>Severe</severity><certainty>Likely</certainty>
<headline>Vigilance orange: tempête sur la côte</headline><description>Rafales à 120 km/h.</description>
<area><areaDesc>Côtes-d'Armor</areaDesc></area></info>
<info><category>Met</category><event>Storm</event><urgency>Expected</urgency><severity>Severe</severity><certainty>Likely</certainty>
<instruction>Stay indoors.</instruction><area><areaDesc>Brittany coast</areaDesc></area></info>
</alert>`
	latin1, err := charmap.ISO8859_1.NewEncoder().String(alert)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, contentType, body, wantType string
	}{
		{"cap+xml utf-8 body", "application/cap+xml; charset=utf-8", strings.Replace(alert, "ISO-8859-1", "UTF-8", 1), "application/cap+xml"},
		{"cap+xml latin-1", "application/cap+xml", latin1, "application/cap+xml"},
		{"generic xml latin-1", "application/xml", latin1, "application/xml"},
		{"sniffed latin-1", "", latin1, "application/xml"},
	}
	want := "Tempête\nVigilance orange: tempête sur la côte\nRafales à 120 km/h.\nCôtes-d'Armor\nStorm\nStay indoors.\nBrittany coast"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc, err := NewRegistry().Read(context.Background(), tt.contentType, strings.NewReader(tt.body), nil)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != want {
				t.Errorf("Text = %q\nwant   %q", doc.Text, want)
			}
			if doc.MediaType != tt.wantType || doc.Title != "Vigilance orange: tempête sur la côte" {
				t.Errorf("MediaType, Title = %q, %q", doc.MediaType, doc.Title)
			}
		})
	}
}

func TestCAPReaderMalformed(t *testing.T) {
	t.Parallel()
	_, err := NewRegistry().Read(context.Background(), "application/cap+xml", bytes.NewReader([]byte("<alert><unclosed>")), nil)
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed", err)
	}
}
