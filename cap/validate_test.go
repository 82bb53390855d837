package cap

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func validAlert() *Alert {
	alt, ceil := 0.0, 100.0
	return &Alert{
		Version: Version12, Identifier: "id", Sender: "s@example.org", Sent: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		Status: StatusActual, MsgType: MsgTypeAlert, Scope: ScopePublic,
		Infos: []Info{{
			Category: []Category{CategoryMet}, Event: "Storm", Urgency: UrgencyExpected, Severity: SeverityModerate, Certainty: CertaintyLikely,
			Resources: []Resource{{ResourceDesc: "map", MimeType: "image/png", DerefURI: "aGVsbG8="}},
			Areas: []Area{{AreaDesc: "here", Polygons: []Polygon{{{1, 1}, {2, 2}, {3, 1}, {1, 1}}},
				Circles: []Circle{{Center: Point{1, 2}, Radius: 3}}, Altitude: &alt, Ceiling: &ceil}},
		}},
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		change      func(a *Alert)
		field, rule string
	}{
		{"valid", func(*Alert) {}, "", ""},
		{"no version is 1.2", func(a *Alert) { a.Version = "" }, "", ""},
		{"unknown version", func(a *Alert) { a.Version = "2.0" }, "alert", "unknown CAP version"},
		{"no identifier", func(a *Alert) { a.Identifier = "" }, "alert.identifier", "required"},
		{"no sent", func(a *Alert) { a.Sent = time.Time{} }, "alert.sent", "required"},
		{"bad status", func(a *Alert) { a.Status = "Live" }, "alert.status", "enumeration"},
		{"password in 1.2", func(a *Alert) { a.Password = "x" }, "alert.password", "CAP 1.0 only"},
		{"no category", func(a *Alert) { a.Infos[0].Category = nil }, "alert.info[0].category", "required"},
		{"responseType in 1.0", func(a *Alert) {
			a.Version, a.Infos[0].ResponseTypes, a.Infos[0].Resources = Version10, []ResponseType{ResponseNone}, nil
		}, "alert.info[0].responseType", "not in CAP 1.0"},
		{"derefUri in 1.0", func(a *Alert) { a.Version = Version10 }, "alert.info[0].resource[0].derefUri", "not in CAP 1.0"},
		{"negative size", func(a *Alert) { a.Infos[0].Resources[0].Size = -1 }, "alert.info[0].resource[0].size", "negative"},
		{"NaN radius", func(a *Alert) { a.Infos[0].Areas[0].Circles[0].Radius = math.NaN() }, "alert.info[0].area[0].circle[0]", "radius"},
		{"NaN latitude", func(a *Alert) { a.Infos[0].Areas[0].Polygons[0][1].Lat = math.NaN() }, "alert.info[0].area[0].polygon[0]", "out of range"},
		{"infinite altitude", func(a *Alert) { inf := math.Inf(1); a.Infos[0].Areas[0].Altitude = &inf }, "alert.info[0].area[0].altitude", "not a number"},
		{"reference without time", func(a *Alert) { a.References = []Reference{{Sender: "a", Identifier: "b"}} }, "alert.references", "without sent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := validAlert()
			tt.change(a)
			err := a.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !hasProblem(ValidationErrors(err), tt.field, tt.rule) {
				t.Errorf("Validate = %v; want %s: %s", err, tt.field, tt.rule)
			}
		})
	}
}

func TestValidationError(t *testing.T) {
	t.Parallel()
	e := &ValidationError{Field: "alert.sent", Rule: "dateTime format", Value: "2024"}
	if got, want := e.Error(), `cap: alert.sent: dateTime format: "2024"`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := (&ValidationError{Field: "alert", Rule: "r"}).Error(), "cap: alert: r"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	joined := errors.Join(e, errors.New("other"), errors.Join(&ValidationError{Field: "b"}))
	if got := ValidationErrors(joined); len(got) != 2 || got[0] != e {
		t.Errorf("ValidationErrors = %v", got)
	}
	if ValidationErrors(nil) != nil {
		t.Error("ValidationErrors(nil) is not nil")
	}
	if got := clip(strings.Repeat("é", 100)); len(got) > 84 || !strings.HasSuffix(got, "…") {
		t.Errorf("clip = %q", got)
	}
}

func TestParseDateTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		form dateForm
		ok   bool
	}{
		{"2024-02-29T23:59:59+14:00", formCAP, true},
		{"2023-02-29T00:00:00-00:00", 0, false},
		{"2024-01-01T24:00:00-00:00", 0, false},
		{"2024-01-01T00:00:00+15:00", 0, false},
		{"2024-01-01T00:00:00.123Z", formFraction | formZ, true},
		{"2024-01-01 00:00:00+0100", formSpace | formShortZone, true},
		{"2024-01-01T00:00:00+01", formShortZone, true},
		{"2024-01-01T00:00:00", formNoZone, true},
		{"2024-01-01T00:00:00.", 0, false},
		{"2024-01-01T00:00:00+01:0", 0, false},
		{"2024-1-01T00:00:00-00:00", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		_, form, ok := parseDateTime(tt.in)
		if ok != tt.ok || (ok && form != tt.form) {
			t.Errorf("parseDateTime(%q) = %b, %v; want %b, %v", tt.in, form, ok, tt.form, tt.ok)
		}
	}
}

func TestEnumerations(t *testing.T) {
	t.Parallel()
	if !StatusDraft.Valid() || Status("draft").Valid() || !CertaintyVeryLikely.Valid() || !ResponseAllClear.Valid() ||
		!CategoryCBRNE.Valid() || !MsgTypeAck.Valid() || !ScopePrivate.Valid() || !UrgencyPast.Valid() || !SeverityMinor.Valid() {
		t.Error("Valid disagrees with the CAP 1.2 enumerations")
	}
	if SeverityExtreme.Rank() <= SeveritySevere.Rank() || UrgencyImmediate.Rank() <= UrgencyExpected.Rank() || CertaintyObserved.Rank() <= CertaintyLikely.Rank() {
		t.Error("Rank order wrong")
	}
	if v, ok := VersionOf(Namespace11); !ok || v != Version11 || v.Namespace() != Namespace11 {
		t.Error("VersionOf/Namespace disagree")
	}
	if _, ok := VersionOf("urn:example"); ok || Version("3").Namespace() != "" {
		t.Error("unknown version accepted")
	}
}
