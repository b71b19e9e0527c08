// Package agentproc holds what every agent driver's process needs around
// the launcher: the three pipes, the wait for an exit with a grace, forcing
// stuck pipe readers out, and a bounded tail of stderr. It knows no agent
// and no protocol; the drivers under internal/agent share it instead of
// keeping a copy each.
package agentproc
