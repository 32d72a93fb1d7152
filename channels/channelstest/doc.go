// Package channelstest provides in-memory fakes of the channels contracts
// for tests: an Adapter that feeds scripted inbound messages and records
// what it is sent (with injectable send errors), and in-memory Inbox and
// Outbox implementations with the same semantics as the durable ones.
package channelstest
