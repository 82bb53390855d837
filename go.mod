module github.com/vokter-go/vokter

go 1.25.0

require (
	github.com/abadojack/whatlanggo v1.0.1
	github.com/andybalholm/cascadia v1.3.5
	github.com/bits-and-blooms/bloom/v3 v3.7.1
	github.com/blevesearch/snowballstem v0.9.0
	github.com/ekzhu/minhash-lsh v0.0.0-20171225071031-5c06ee8586a1
	github.com/google/btree v1.1.3
	github.com/mmcloughlin/geohash v0.10.0
	github.com/reugn/go-quartz v0.15.2
	github.com/sergi/go-diff v1.4.0
	github.com/twpayne/go-kml/v3 v3.2.1
	go.etcd.io/bbolt v1.5.0
	go.uber.org/goleak v1.3.0
	golang.org/x/net v0.58.0
	golang.org/x/text v0.41.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/dgryski/go-metro v0.0.0-20250106013310-edb8663e5e33 // indirect
	github.com/dgryski/go-minhash v0.0.0-20170608043002-7fe510aff544 // indirect
	github.com/dgryski/go-spooky v0.0.0-20170606183049-ed3d087f40e2 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
