package substitutes

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Dir returns the absolute path of the repository's localstack/ directory.
// Tests run with their package directory as working directory, so it walks up
// from there to the first directory holding both go.mod and
// localstack/package.json (a nested module such as infra/ has its own go.mod
// but no localstack/).
func Dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("substitutes: working directory: %w", err)
	}
	for dir := wd; ; {
		if isFile(filepath.Join(dir, "go.mod")) && isFile(filepath.Join(dir, "localstack", "package.json")) {
			return filepath.Join(dir, "localstack"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("substitutes: no go.mod with a localstack/package.json above " + wd)
		}
		dir = parent
	}
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
