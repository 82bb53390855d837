package stem_test

import (
	"fmt"

	"github.com/vokter-go/vokter/stem"
)

func ExampleDetect() {
	fmt.Println(stem.Detect("Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας."))

	// Too short to tell: the default language is reported as unreliable.
	fmt.Println(stem.Detect("Hello world"))
	// Output:
	// el true
	// en false
}

func ExampleDetector() {
	// A Russian sentence too short for a reliable detection: the script
	// narrows the guess enough to pick the right stemmer.
	d := stem.Detector{Default: "en", TrustScript: true}.Detect("Сильные наводнения в городе.")
	fmt.Println(d.Lang, d.Reliable, d.ISO6393)
	// Output:
	// ru false rus
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

func ExampleElisions() {
	fr := stem.Elisions("fr")
	fmt.Println(fr.Strip("l'homme"), fr.Strip("L’Europe"), fr.Strip("aujourd'hui"))
	fmt.Println(stem.Elisions("en") == nil) // English elides no articles
	// Output:
	// homme Europe aujourd'hui
	// true
}

func ExampleLowerFunc() {
	fmt.Println(stem.LowerFunc("tr")("IŞIK"), stem.LowerFunc("en")("IŞIK"))
	// Output: ışık işik
}
