import type { DomainSpec, ParamSpec } from '../types.js';
import { globalIdParam } from '../patterns.js';

const categoryId: ParamSpec = {
  ...globalIdParam('securityCategory'),
  gid: 'Security::Category',
  description: 'Global ID of the security category, e.g. "gid://gitlab/Security::Category/3" or just "3".',
};
const namespaceId: ParamSpec = {
  ...globalIdParam('namespace'),
  gid: 'Group',
  description:
    'Global ID of the top-level group holding the categories, e.g. "gid://gitlab/Group/10" or just "10".',
};
const CATEGORY = `id
      name
      description
      multipleSelection
      editableState
      templateType
      securityAttributes { id name description color editableState }`;

export const domain: DomainSpec = {
  domain: 'security_category',
  metaTool: 'forge_security_category',
  summary:
    'Security categories of a top-level group: the headings (such as business impact or exposure) under which security attributes are defined; create, rename and delete them.',
  actions: [
    {
      id: 'security_category.create',
      title: 'Create security category',
      description:
        'Create a custom security category in a top-level group, deciding whether a project may carry one or several of its attributes; then add attributes with security_attribute.create.',
      tool: 'forge_security_category_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'ultimate',
      scope: 'api',
      params: {
        namespace_id: namespaceId,
        name: { type: 'string', description: 'Category name, e.g. "Data sensitivity".' },
        description: { type: 'string', description: 'What the category classifies.' },
        multiple_selection: {
          type: 'boolean',
          description:
            'true if a project may carry several attributes of this category (default false: one).',
        },
      },
      required: ['namespace_id', 'name'],
      request: {
        graphql: {
          document: `mutation securityCategoryCreate($namespaceId: NamespaceID!, $name: String!, $description: String, $multipleSelection: Boolean) {
  securityCategoryCreate(input: { namespaceId: $namespaceId, name: $name, description: $description, multipleSelection: $multipleSelection }) {
    securityCategory {
      ${CATEGORY}
    }
    errors
  }
}`,
          variables: {
            namespaceId: 'namespace_id',
            name: 'name',
            description: 'description',
            multipleSelection: 'multiple_selection',
          },
          resultPath: 'securityCategoryCreate.securityCategory',
          mutation: 'securityCategoryCreate',
        },
      },
      example: { namespace_id: 'gid://gitlab/Group/10', name: 'Data sensitivity', multiple_selection: false },
    },
    {
      id: 'security_category.delete',
      title: 'Delete security category',
      description:
        'Delete a custom security category together with all its security attributes, which are removed from every project. Irreversible; answers the IDs of the attributes deleted with it.',
      tool: 'forge_security_category_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: { id: categoryId },
      required: ['id'],
      request: {
        graphql: {
          document: `mutation securityCategoryDestroy($id: SecurityCategoryID!) {
  securityCategoryDestroy(input: { id: $id }) {
    deletedAttributesGid
    errors
  }
}`,
          variables: { id: 'id' },
          mutation: 'securityCategoryDestroy',
        },
      },
      example: { id: 'gid://gitlab/Security::Category/1' },
    },
    {
      id: 'security_category.update',
      title: 'Update security category',
      description: 'Rename a custom security category or change its description.',
      tool: 'forge_security_category_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        id: categoryId,
        namespace_id: namespaceId,
        name: { type: 'string', description: 'New name.' },
        description: { type: 'string', description: 'New description.' },
      },
      required: ['id', 'namespace_id'],
      oneOf: [['name', 'description']],
      request: {
        graphql: {
          document: `mutation securityCategoryUpdate($id: SecurityCategoryID!, $namespaceId: NamespaceID!, $name: String, $description: String) {
  securityCategoryUpdate(input: { id: $id, namespaceId: $namespaceId, name: $name, description: $description }) {
    securityCategory {
      ${CATEGORY}
    }
    errors
  }
}`,
          variables: { id: 'id', namespaceId: 'namespace_id', name: 'name', description: 'description' },
          resultPath: 'securityCategoryUpdate.securityCategory',
          mutation: 'securityCategoryUpdate',
        },
      },
      example: {
        id: 'gid://gitlab/Security::Category/1',
        namespace_id: 'gid://gitlab/Group/10',
        name: 'Data class',
      },
    },
  ],
};
