// Package leaderelection elects one leader among the replicas of a controller through a lock on the
// API server (a Lease, see package resourcelock), with client-go's names and semantics: a candidate
// takes the lock once its holder stopped renewing it for LeaseDuration, as measured on the
// candidate's own clock, and the leader keeps it by renewing it every RetryPeriod, stepping down when
// it could not renew for RenewDeadline.
//
// Beyond client-go: the clock is injectable (LeaderElectionConfig.Clock) so tests run on a fake
// clock, OnNewLeader is called in the order leaders were observed and never concurrently with
// itself, and the leader metric goes off whenever leading stops, not only when renewal fails.
// Coordinated leader election (LeaseCandidate objects) is not supported.
//
// Leader election is not fencing: a leader that lost the lock learns it up to RenewDeadline later,
// so work that must never run twice needs its own guard.
package leaderelection
