// Package push sends Web Push notifications (RFC 8030) to the browsers
// that subscribed: the VAPID key pair of this server (RFC 8292), kept in
// the data dir, the subscriptions, kept beside it, and a sender that
// encrypts each message for each subscription (RFC 8291, through
// github.com/SherClockHolmes/webpush-go) on its own goroutine, so the
// live path never waits for a push service.
package push
