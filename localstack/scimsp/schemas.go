package scimsp

import (
	"slices"

	elimity "github.com/elimity-com/scim"
	"github.com/elimity-com/scim/optional"
	"github.com/elimity-com/scim/schema"
)

// maxResults is the page size of list responses.
const maxResults = 100

func serviceProviderConfig(a authenticator, o Options) *elimity.ServiceProviderConfig {
	return &elimity.ServiceProviderConfig{
		DocumentationURI:      optional.NewString("https://datatracker.ietf.org/doc/html/rfc7644"),
		AuthenticationSchemes: a.authenticationSchemes(),
		MaxResults:            maxResults,
		SupportFiltering:      o.Filters != FiltersNone,
		SupportPatch:          !o.NoPatch,
	}
}

// resourceTypes are Users (core schema with the enterprise extension, as
// SPs answer in spec 2.1) and Groups (core schema).
func resourceTypes(sp *SP) []elimity.ResourceType {
	return []elimity.ResourceType{
		{
			ID:          optional.NewString("User"),
			Name:        "User",
			Endpoint:    "/Users",
			Description: optional.NewString("User Account"),
			Schema:      withExternalID(schema.CoreUserSchema()),
			SchemaExtensions: []elimity.SchemaExtension{
				{Schema: schema.ExtensionEnterpriseUser()},
			},
			Handler: userHandler{sp},
		},
		{
			ID:          optional.NewString("Group"),
			Name:        "Group",
			Endpoint:    "/Groups",
			Description: optional.NewString("Group"),
			Schema:      withExternalID(schema.CoreGroupSchema()),
			Handler:     groupHandler{sp},
		},
	}
}

// withExternalID adds the common attribute externalId to a core schema.
// The elimity server validates bodies against the schema plus externalId,
// but validates filters against the bare schema, so without this a filter
// `externalId eq "..."` (which the service uses to find what it created)
// is refused as invalidFilter. The slice is clipped so that the server's
// own append for body validation never writes into a shared array.
func withExternalID(s schema.Schema) schema.Schema {
	s.Attributes = slices.Clip(append(slices.Clone(s.Attributes),
		schema.SimpleCoreAttribute(schema.SimpleStringParams(schema.StringParams{
			CaseExact:  true,
			Mutability: schema.AttributeMutabilityReadWrite(),
			Name:       schema.CommonAttributeExternalID,
			Uniqueness: schema.AttributeUniquenessNone(),
		})),
	))
	return s
}
