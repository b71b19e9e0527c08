package attach

// KindOf is how a stored file of canonical media type mt (File.MediaType)
// goes to the CLI: what Decode gave it when it was checked.
func KindOf(mt string) Kind {
	switch {
	case imageTypes[mt]:
		return Image
	case mt == "application/pdf":
		return Document
	}
	return Text
}
