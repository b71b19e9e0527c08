package wire

// TypeViewing is the one client frame of /ws/app:
// {"type":"viewing","sessionId":"<sid>"|null}, the session this tab shows
// while it is visible (null when hidden or on no session). The server
// pushes no notification for a session some tab views.
const TypeViewing = "viewing"
