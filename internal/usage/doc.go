// Package usage reads what the Claude CLI reports about cost and limits:
// the per-turn token and cost figures of its stream-json result lines
// (result.go), their roll-up by day, session or model (rollup.go), and
// the subscription limiter's state from rate_limit_event lines
// (ratelimit.go). It holds no state and does no I/O: the sdk worker feeds
// it stored lines and persist keeps what it returns.
package usage
