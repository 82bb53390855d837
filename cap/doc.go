// Package cap reads, validates, writes and queries Common Alerting Protocol
// (CAP 1.0, 1.1 and 1.2) alerts and their Atom, RSS and EDXL-DE indices.
//
// The package name shadows Go's builtin cap function inside files that import
// it; such files import it under another name or avoid the builtin.
package cap
