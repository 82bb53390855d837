// Package job is the watch manager that applications embed.
//
// A [Manager] keeps one detection job (a cluster) per document URL,
// however many sessions watch it, scheduled with go-quartz at the shortest
// interval of the URL's subscriptions. Each check fetches the document
// (package fetch), reads it to text (reader), detects its language (stem),
// diffs it against the previous snapshot (diff) and matches every
// subscription's keywords against the added and removed fragments (index):
// keywords are indexed by their first normalised term, so the cost of a
// check grows with the diff, not with the number of subscriptions. Each
// subscription with matches gets one [Notification] through the
// application's [Handler]; a document that fails to load
// Config.MaxFailures times in a row gets its subscribers a [Timeout] and
// its cluster deleted.
//
// Everything lives in a [store.Store] (a bbolt file, or memory in tests):
// subscriptions, clusters, the latest snapshot and diffs, and an outbox of
// the handler calls still to make. A restarted manager resumes every
// cluster and every undelivered notification.
//
// # Caveats
//
//   - Delivery is at least once: a notification whose handler call was in
//     progress when the process died is delivered again after a restart.
//     Retries of one subscription's notifications may overlap and arrive
//     out of order; use Notification.CheckedAt to order them.
//   - A handler must not call Stop (Stop waits for the handler), and
//     should not call Check with Config.DeliveryWorkers set to 1 (Check
//     waits for a delivery worker).
//   - The first Add of a URL fetches the baseline before it returns; a
//     page that hangs holds Add up to the fetch timeout.
//   - One manager name must be used by one running manager at a time:
//     two processes running the same name on one store would both check
//     every URL.
//   - Config.Clock stamps records and notifications; the scheduler always
//     runs on the system clock.
package job
