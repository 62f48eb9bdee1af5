import type { DomainSpec, ParamSpec } from '../types.js';
import { globalIdParam } from '../patterns.js';

const attributeId: ParamSpec = {
  ...globalIdParam('securityAttribute'),
  gid: 'Security::Attribute',
  description: 'Global ID of the security attribute, e.g. "gid://gitlab/Security::Attribute/9" or just "9".',
};
const attributeIds = (what: string): ParamSpec => ({
  type: 'array',
  items: globalIdParam('securityAttribute'),
  gid: 'Security::Attribute',
  description: `${what}, as global IDs, e.g. ["gid://gitlab/Security::Attribute/9"] or just ["9"].`,
});
const color: ParamSpec = {
  type: 'string',
  pattern: '^#[0-9A-Fa-f]{6}$',
  description: 'Badge color as a hex code #RRGGBB, e.g. "#D9534F".',
};
const ATTRIBUTE = `id
      name
      description
      color
      editableState
      securityCategory { id name multipleSelection }`;

export const domain: DomainSpec = {
  domain: 'security_attribute',
  metaTool: 'forge_security_attribute',
  summary:
    'Security attributes: labels (business impact, application, exposure...) grouped in security categories of a top-level group, created, edited and deleted there and applied to projects one by one or in bulk.',
  actions: [
    {
      id: 'security_attribute.bulk_update',
      title: 'Apply security attributes in bulk',
      description:
        'Add, remove or replace security attributes on many projects and groups at once (a group means all its projects); runs in the background. For one project use security_attribute.project_update.',
      tool: 'forge_security_attribute_bulk_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        items: {
          type: 'array',
          minItems: 1,
          items: globalIdParam('projectOrGroup'),
          description:
            'Projects and groups to change, as global IDs, e.g. ["gid://gitlab/Project/1", "gid://gitlab/Group/10"].',
        },
        attributes: { ...attributeIds('Attributes to apply'), minItems: 1 },
        mode: {
          type: 'string',
          enum: ['ADD', 'REMOVE', 'REPLACE'],
          description:
            'ADD keeps existing attributes and adds these; REMOVE takes these off; REPLACE makes these the only attributes.',
        },
      },
      required: ['items', 'attributes', 'mode'],
      request: {
        graphql: {
          document: `mutation bulkUpdateSecurityAttributes($items: [ID!]!, $attributes: [SecurityAttributeID!]!, $mode: SecurityAttributeBulkUpdateMode!) {
  bulkUpdateSecurityAttributes(input: { items: $items, attributes: $attributes, mode: $mode }) {
    errors
  }
}`,
          variables: { items: 'items', attributes: 'attributes', mode: 'mode' },
          mutation: 'bulkUpdateSecurityAttributes',
        },
      },
      example: {
        items: ['gid://gitlab/Project/1', 'gid://gitlab/Project/2'],
        attributes: ['gid://gitlab/Security::Attribute/1'],
        mode: 'ADD',
      },
    },
    {
      id: 'security_attribute.create',
      title: 'Create security attributes',
      description:
        'Create one or more security attributes (name, description, color) in a security category of a top-level group; create the category first with security_category.create.',
      tool: 'forge_security_attribute_create',
      write: true,
      destructive: false,
      idempotent: false,
      tier: 'ultimate',
      scope: 'api',
      params: {
        namespace_id: {
          ...globalIdParam('namespace'),
          gid: 'Group',
          description: 'Global ID of the top-level group, e.g. "gid://gitlab/Group/10" or just "10".',
        },
        category_id: {
          ...globalIdParam('securityCategory'),
          gid: 'Security::Category',
          description:
            'Global ID of the security category to add them to, e.g. "gid://gitlab/Security::Category/3" or just "3".',
        },
        attributes: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              description: { type: 'string' },
              color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' },
            },
            required: ['name', 'description', 'color'],
          },
          description:
            'Attributes to create, e.g. [{"name": "Critical", "description": "Revenue-critical system", "color": "#D9534F"}].',
        },
      },
      required: ['namespace_id', 'category_id', 'attributes'],
      request: {
        graphql: {
          document: `mutation securityAttributeCreate($namespaceId: NamespaceID!, $categoryId: SecurityCategoryID!, $attributes: [SecurityAttributeInput!]!) {
  securityAttributeCreate(input: { namespaceId: $namespaceId, categoryId: $categoryId, attributes: $attributes }) {
    securityAttributes {
      ${ATTRIBUTE}
    }
    errors
  }
}`,
          variables: { namespaceId: 'namespace_id', categoryId: 'category_id', attributes: 'attributes' },
          resultPath: 'securityAttributeCreate.securityAttributes',
          mutation: 'securityAttributeCreate',
        },
      },
      example: {
        namespace_id: 'gid://gitlab/Group/10',
        category_id: 'gid://gitlab/Security::Category/1',
        attributes: [{ name: 'Critical', description: 'Revenue-critical system', color: '#D9534F' }],
      },
    },
    {
      id: 'security_attribute.delete',
      title: 'Delete security attribute',
      description:
        'Delete a custom security attribute; it is removed from every project carrying it. Irreversible.',
      tool: 'forge_security_attribute_delete',
      write: true,
      destructive: true,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: { id: attributeId },
      required: ['id'],
      request: {
        graphql: {
          document: `mutation securityAttributeDestroy($id: SecurityAttributeID!) {
  securityAttributeDestroy(input: { id: $id }) {
    errors
  }
}`,
          variables: { id: 'id' },
          mutation: 'securityAttributeDestroy',
        },
      },
      example: { id: 'gid://gitlab/Security::Attribute/1' },
    },
    {
      id: 'security_attribute.project_update',
      title: 'Add or remove security attributes on a project',
      description:
        'Attach security attributes to one project and/or detach others in one call; answers how many were added and removed.',
      tool: 'forge_security_attribute_project_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        project_id: {
          ...globalIdParam('project'),
          gid: 'Project',
          description: 'Global ID of the project, e.g. "gid://gitlab/Project/1" or just "1".',
        },
        add_attribute_ids: attributeIds('Attributes to attach'),
        remove_attribute_ids: attributeIds('Attributes to detach'),
      },
      required: ['project_id'],
      oneOf: [['add_attribute_ids', 'remove_attribute_ids']],
      request: {
        graphql: {
          document: `mutation securityAttributeProjectUpdate($projectId: ProjectID!, $addAttributeIds: [SecurityAttributeID!], $removeAttributeIds: [SecurityAttributeID!]) {
  securityAttributeProjectUpdate(input: { projectId: $projectId, addAttributeIds: $addAttributeIds, removeAttributeIds: $removeAttributeIds }) {
    addedCount
    removedCount
    errors
  }
}`,
          variables: {
            projectId: 'project_id',
            addAttributeIds: 'add_attribute_ids',
            removeAttributeIds: 'remove_attribute_ids',
          },
          mutation: 'securityAttributeProjectUpdate',
        },
      },
      example: {
        project_id: 'gid://gitlab/Project/1',
        add_attribute_ids: ['gid://gitlab/Security::Attribute/1'],
      },
    },
    {
      id: 'security_attribute.update',
      title: 'Update security attribute',
      description: 'Rename a custom security attribute or change its description or color.',
      tool: 'forge_security_attribute_update',
      write: true,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'api',
      params: {
        id: attributeId,
        name: { type: 'string', description: 'New name.' },
        description: { type: 'string', description: 'New description.' },
        color,
      },
      required: ['id'],
      oneOf: [['name', 'description', 'color']],
      request: {
        graphql: {
          document: `mutation securityAttributeUpdate($id: SecurityAttributeID!, $name: String, $description: String, $color: Color) {
  securityAttributeUpdate(input: { id: $id, name: $name, description: $description, color: $color }) {
    securityAttribute {
      ${ATTRIBUTE}
    }
    errors
  }
}`,
          variables: { id: 'id', name: 'name', description: 'description', color: 'color' },
          resultPath: 'securityAttributeUpdate.securityAttribute',
          mutation: 'securityAttributeUpdate',
        },
      },
      example: { id: 'gid://gitlab/Security::Attribute/1', color: '#F0AD4E' },
    },
  ],
};
