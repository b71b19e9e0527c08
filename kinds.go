package main

import "github.com/agentdesk/agentdesk/worker"

// factories lists the worker kinds this build supports.
func factories() map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{}
}
