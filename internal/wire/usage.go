package wire

// TypeRateLimit is the /ws/app frame {"type":"rate-limit","rateLimit":{…}}
// sent when an sdk worker's CLI reports a new subscription rate-limit
// state (docs/api-extensions.md, "Usage and rate limits").
const TypeRateLimit = "rate-limit"
