import type { DomainSpec } from '../types.js';
import * as P from '../params.js';
import { globalIdParam } from '../patterns.js';

const RESOURCE = `id
    name
    description
    fullPath
    webPath
    icon
    starCount
    verificationLevel
    latestReleasedAt
    topics`;

export const domain: DomainSpec = {
  domain: 'ci_catalog',
  metaTool: 'forge_ci_catalog',
  summary:
    'The CI/CD Catalog: search published CI/CD components and their projects, and read one resource with its versions, components and inputs.',
  actions: [
    {
      id: 'ci_catalog.get',
      title: 'Get CI/CD Catalog resource',
      description:
        'Read one CI/CD Catalog resource (a project publishing components) with its recent versions, each version’s components and their inputs, to write an include: component line.',
      tool: 'forge_get_catalog_resource',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        full_path: {
          type: 'string',
          description: 'Full path of the catalog project, e.g. "acme/ci-components".',
        },
        id: {
          ...globalIdParam('catalogResource'),
          gid: 'Ci::Catalog::Resource',
          description:
            'Global ID instead of the path, e.g. "gid://gitlab/Ci::Catalog::Resource/3" or just "3".',
        },
        versions: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'How many most recent versions to include (default 5).',
          default: 5,
        },
        version: {
          type: 'string',
          minLength: 1,
          description: 'Only this version, by its name, e.g. "1.2.0": its components and their inputs.',
        },
      },
      oneOf: [['full_path', 'id']],
      request: {
        graphql: {
          document: `query queryGetResource($fullPath: ID, $id: CiCatalogResourceID, $versions: Int = 5, $version: String) {
  ciCatalogResource(fullPath: $fullPath, id: $id) {
    ${RESOURCE}
    versions(first: $versions, name: $version) {
      nodes {
        id
        name
        releasedAt
        path
        components {
          nodes {
            id
            name
            includePath
            inputs { name required default description type }
          }
        }
      }
    }
  }
}`,
          variables: { fullPath: 'full_path', id: 'id', versions: 'versions', version: 'version' },
          resultPath: 'ciCatalogResource',
        },
      },
      example: { full_path: 'acme/widgets' },
    },
    {
      id: 'ci_catalog.list',
      title: 'Search CI/CD Catalog',
      description:
        'Search the CI/CD Catalog for published component projects by name or description, sorted by popularity, stars, name or release date.',
      tool: 'forge_list_catalog_resources',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {
        search: { type: 'string', description: 'Text to find in the name or description, e.g. "docker".' },
        scope: {
          type: 'string',
          enum: ['ALL', 'NAMESPACES'],
          description:
            'ALL: every resource you can see (default); NAMESPACES: only those of your groups and projects.',
        },
        sort: {
          type: 'string',
          enum: [
            'NAME_ASC',
            'NAME_DESC',
            'LATEST_RELEASED_AT_ASC',
            'LATEST_RELEASED_AT_DESC',
            'CREATED_ASC',
            'CREATED_DESC',
            'STAR_COUNT_ASC',
            'STAR_COUNT_DESC',
            'USAGE_COUNT_ASC',
            'USAGE_COUNT_DESC',
          ],
          description: 'Order of the results (default LATEST_RELEASED_AT_DESC).',
        },
        verification_level: {
          type: 'string',
          enum: [
            'GITLAB_MAINTAINED',
            'GITLAB_PARTNER_MAINTAINED',
            'VERIFIED_CREATOR_MAINTAINED',
            'VERIFIED_CREATOR_SELF_MANAGED',
            'UNVERIFIED',
          ],
          description: 'Only resources of this verification level, e.g. "GITLAB_MAINTAINED".',
        },
        topics: {
          type: 'array',
          items: { type: 'string' },
          description: 'Only resources of projects with these topics, e.g. ["docker"].',
        },
        ...P.gqlPaging,
      },
      request: {
        graphql: {
          document: `query queryListResources($search: String, $scope: CiCatalogResourceScope, $sort: CiCatalogResourceSort, $verificationLevel: CiCatalogResourceVerificationLevel, $topics: [String!], $first: Int, $after: String) {
  ciCatalogResources(search: $search, scope: $scope, sort: $sort, verificationLevel: $verificationLevel, topics: $topics, first: $first, after: $after) {
    count
    pageInfo { hasNextPage endCursor }
    nodes {
    ${RESOURCE}
    }
  }
}`,
          variables: {
            search: 'search',
            scope: 'scope',
            sort: 'sort',
            verificationLevel: 'verification_level',
            topics: 'topics',
            first: 'first',
            after: 'after',
          },
          // The whole connection: count and pageInfo matter here.
          resultPath: '',
        },
      },
      example: { search: 'docker', sort: 'STAR_COUNT_DESC' },
    },
  ],
};
