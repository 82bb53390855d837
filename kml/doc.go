// Package kml renders CAP alerts as OGC KML 2.2 documents.
package kml
