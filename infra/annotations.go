package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// printAnnotations writes the warnings and errors that constructs added
// during synthesis (the assembly's manifest.json keeps them as metadata)
// to w, one line each, so that `make synth` shows them on the terminal
// and not only in cdk.out. It returns how many it wrote.
func printAnnotations(w io.Writer, assemblyDir string) (int, error) {
	raw, err := os.ReadFile(filepath.Join(assemblyDir, "manifest.json"))
	if err != nil {
		return 0, err
	}
	var manifest struct {
		Artifacts map[string]struct {
			Metadata               map[string][]metadataEntry `json:"metadata"`
			AdditionalMetadataFile string                     `json:"additionalMetadataFile"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		return 0, fmt.Errorf("manifest.json: %w", err)
	}
	n := 0
	for _, artifact := range slices.Sorted(maps.Keys(manifest.Artifacts)) {
		a := manifest.Artifacts[artifact]
		meta := map[string][]metadataEntry{}
		maps.Copy(meta, a.Metadata)
		if a.AdditionalMetadataFile != "" {
			// Stacks keep their metadata in a file of their own.
			more := map[string][]metadataEntry{}
			b, err := os.ReadFile(filepath.Join(assemblyDir, a.AdditionalMetadataFile))
			if err == nil {
				err = json.Unmarshal(b, &more)
			}
			if err != nil {
				return n, fmt.Errorf("%s: %w", a.AdditionalMetadataFile, err)
			}
			for path, entries := range more {
				meta[path] = append(meta[path], entries...)
			}
		}
		for _, path := range slices.Sorted(maps.Keys(meta)) {
			for _, e := range meta[path] {
				level, ok := strings.CutPrefix(e.Type, "aws:cdk:")
				if !ok || (level != "warning" && level != "error") {
					continue
				}
				fmt.Fprintf(w, "%s at %s: %v\n", strings.ToUpper(level), path, e.Data)
				n++
			}
		}
	}
	return n, nil
}

type metadataEntry struct {
	Type string `json:"type"`
	Data any    `json:"data"`
}
