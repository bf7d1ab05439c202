package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/scimprobe"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// worldReferencePrefixes are the operator's reference prefixes of the
// world: its connections' env: references (renamed under one prefix) and
// secrets kept elsewhere.
var worldReferencePrefixes = []string{"env:WORLD_SP_", "secretsmanager:elsewhere/"}

// seedWorldRegistry puts the world's applications and connections in its
// table, as the import does: wiki, sp-a, sp-b and the unused spare-app and
// sp-spare belong to org-a (the institution admin's); lms and drive to none.
func seedWorldRegistry(t testing.TB, store *dynamo.Store) {
	t.Helper()
	doc := mustDoc(t, testkit.Registry)
	doc.Provisionings = append(doc.Provisionings, config.ProvisioningDoc{ID: "sp-spare", BaseURL: "https://spare.example.org/scim",
		Auth: config.AuthDoc{Method: "bearer", Token: "env:SPARE"}})
	for i, c := range doc.Provisionings {
		if name, ok := strings.CutPrefix(c.Auth.Token, "env:"); ok {
			doc.Provisionings[i].Auth.Token = "env:WORLD_SP_" + name
		}
	}
	doc.Applications = append(doc.Applications, config.ApplicationDoc{ManageID: "spare-app", ManageType: "OIDC10_RP"})
	ctx := context.Background()
	for i := range doc.Provisionings {
		doc.Provisionings[i].OrganizationGUID = "org-a"
		ch := config.Change{Kind: config.KindConnection, ID: doc.Provisionings[i].ID, Action: config.ActionImport, By: "world", At: time.Now()}
		if err := store.SaveConnection(ctx, doc.Provisionings[i], true, ch); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range doc.Applications {
		if a.ManageID == "wiki" || a.ManageID == "spare-app" {
			a.OrganizationGUID = "org-a"
		}
		ch := config.Change{Kind: config.KindApplication, ID: a.ManageID, Action: config.ActionImport, By: "world", At: time.Now()}
		if _, err := store.SaveApplication(ctx, a, true, ch); err != nil {
			t.Fatal(err)
		}
	}
}

// worldRegistry answers the table-backed registry of a table that holds the
// world's applications and connections, with its management and an empty
// vault.
func worldRegistry(t testing.TB, store *dynamo.Store) (*config.Live, *service.RegistryAdmin, *testkit.MemoryVault) {
	t.Helper()
	live := config.NewLive(store, nil)
	if err := live.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	vault := testkit.NewMemoryVault()
	return live, &service.RegistryAdmin{Store: store, Vault: vault, Secrets: vault, Prober: &scimprobe.Prober{Timeout: 2 * time.Second, Policy: testkit.LoopbackPolicy()},
		Invalidate: live.Invalidate, Outbound: testkit.LoopbackPolicy(), ReferencePrefixes: worldReferencePrefixes}, vault
}

func mustDoc(t testing.TB, s string) config.Document {
	t.Helper()
	var doc config.Document
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}
