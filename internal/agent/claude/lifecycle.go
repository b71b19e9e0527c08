package claude

// TypeCommandLifecycle is the type of the receipts the CLI 2.1.330 prints
// for a user message that was sent with a uuid (SendUserMessage):
// {"type":"command_lifecycle","command_uuid":<that uuid>,"state":"queued"|
// "started"|"completed",…}, the last one after the turn's result. They
// repeat what the turn's own lines say.
const TypeCommandLifecycle = "command_lifecycle"
