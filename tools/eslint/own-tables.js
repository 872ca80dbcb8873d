/**
 * A module of src/server/modules/<name>/ may import only its own tables, db/schema/<name>.ts:
 * another module's data is reached through that module's service, never its tables.
 */
export default {
  meta: {
    type: 'problem',
    docs: { description: "forbid a server module from importing another module's tables" },
    messages: { foreign: 'Module "{{module}}" imports the tables of "{{table}}": call that module\'s service instead.' },
    schema: [],
  },
  create(context) {
    const file = context.filename.replaceAll('\\', '/');
    const mod = /\/src\/server\/modules\/([^/]+)\//.exec(file)?.[1];
    if (!mod) return {};
    const check = (node, source) => {
      const table = /\/db\/schema\/([^/]+?)(?:\.ts)?$/.exec(source)?.[1];
      if (table && table !== mod) context.report({ node, messageId: 'foreign', data: { module: mod, table } });
      if (/\/db\/schema(?:\/index(?:\.ts)?)?$/.test(source)) context.report({ node, messageId: 'foreign', data: { module: mod, table: 'every module' } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, String(node.source.value)),
    };
  },
};
