package stem_test

import (
	"fmt"

	"github.com/vokter-go/vokter/stem"
)

func ExampleDetect() {
	d := stem.Detect("Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας.")
	fmt.Println(d.Lang, d.Reliable)

	// Too short to tell: the default language is reported as unreliable.
	d = stem.Detector{Default: "en"}.Detect("Hello world")
	fmt.Println(d.Lang, d.Reliable)
	// Output:
	// el true
	// en false
}

func ExampleFor() {
	en := stem.For("en")
	fmt.Println(en.Stem("Flooding"), en.Stem("houses"))

	ru := stem.For("ru")
	fmt.Println(ru.Stem("затоплены"))

	fmt.Println(stem.For("el") == nil) // no Snowball stemmer for Greek
	// Output:
	// flood hous
	// затопл
	// true
}

func ExampleStopwords() {
	sw := stem.Stopwords("en")
	fmt.Println(sw.Contains("the"), sw.Contains("house"))
	// Output: true false
}
