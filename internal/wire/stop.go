package wire

// TypeStopStage is the sdk socket's frame for the stages of a Stop
// (docs/api-extensions.md, "Stall watchdog and escalating stop").
const TypeStopStage = "stop-stage"

// The stages of a Stop, in the order they can happen. A Stop that ends at
// an earlier stage (the CLI answered the interrupt) skips the later ones;
// a forced one starts at StageTerminating. StageDone always comes last.
const (
	StageInterrupting = "interrupting" // interrupt sent, waiting for the result
	StageTerminating  = "terminating"  // SIGTERM sent to the CLI and its descendants
	StageKilling      = "killing"      // SIGKILL sent to what ignored SIGTERM
	StageDone         = "done"         // the turn ended: nothing more will happen
)

// StopStage is {"type":"stop-stage","stage"}.
func StopStage(stage string) []byte {
	return mustJSON(struct {
		Type  string `json:"type"`
		Stage string `json:"stage"`
	}{TypeStopStage, stage})
}
