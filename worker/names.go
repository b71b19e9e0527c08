package worker

import "strconv"

// kindWords are the words a person reads on a worker's tab when it was
// given no name: the conversation's chat and terminal views, a shell, the
// diff, the files.
var kindWords = map[Kind]string{
	KindSDK:      "Chat",
	KindPTYAgent: "Terminal",
	KindTerminal: "Shell",
	KindGitDiff:  "Diff",
	KindFiles:    "Files",
}

// defaultName names a new worker of kind k that was given no name: the
// kind's word, numbered ("Shell 2") only while a live worker of the session
// carries it. An agent worker is always the one view of the session's
// conversation that is live (addWorker refuses a second), so the agent
// workers before it, the conversation's history, never count: the chat
// after a switch back is "Chat" again, not "Chat 3". Stopped workers never
// count either.
func (st *sessionState) defaultName(k Kind) string {
	word, ok := kindWords[k]
	if !ok {
		word = string(k)
	}
	taken := make(map[string]bool)
	for _, ws := range st.workers {
		if ws.info.Status == StatusStopped || k.IsAgent() && ws.info.Kind.IsAgent() {
			continue
		}
		taken[ws.info.Name] = true
	}
	name := word
	for n := 2; taken[name]; n++ {
		name = word + " " + strconv.Itoa(n)
	}
	return name
}
