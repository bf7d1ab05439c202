package stack

import "net/http"

// sampleLogoPath is where the stack serves the sample application's logo:
// on its own origin, so that pages show a real image without any site
// outside the machine (the registry names logos by address).
const sampleLogoPath = "/local/sample-logo.svg"

// sampleLogo is a plain square with the letter S.
const sampleLogo = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
	`<rect width="96" height="96" rx="16" fill="#1d4f91"/>` +
	`<text x="48" y="66" font-family="sans-serif" font-size="56" font-weight="bold" fill="#fff" text-anchor="middle">S</text></svg>`

func serveSampleLogo(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(sampleLogo))
}
