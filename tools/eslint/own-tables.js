/**
 * A module of src/server/modules/<name>/ (or of an area, src/server/modules/money/<name>/) may
 * import only its own tables, db/schema/<name>.ts: another module's data is reached through that
 * module's service, never its tables. The renewals also own a game's billing period: they charge
 * and extend it, or expire the game, in one transaction (docs/decisions.md, "Money in one place");
 * the settings own what the server runs with, which are columns of the game's row.
 */
const AREAS = new Set(['money']);
const ALSO_OWNS = { renewals: ['games'], settings: ['games'] };

export default {
  meta: {
    type: 'problem',
    docs: { description: "forbid a server module from importing another module's tables" },
    messages: { foreign: 'Module "{{module}}" imports the tables of "{{table}}": call that module\'s service instead.' },
    schema: [],
  },
  create(context) {
    const file = context.filename.replaceAll('\\', '/');
    const [, top, sub] = /\/src\/server\/modules\/([^/]+)\/(?:([^/]+)\/)?/.exec(file) ?? [];
    const mod = top && AREAS.has(top) ? sub : top;
    if (!mod) return {};
    const owned = new Set([mod, ...(ALSO_OWNS[mod] ?? [])]);
    const check = (node, source) => {
      const table = /\/db\/schema\/([^/]+?)(?:\.ts)?$/.exec(source)?.[1];
      if (table && !owned.has(table)) context.report({ node, messageId: 'foreign', data: { module: mod, table } });
      if (/\/db\/schema(?:\/index(?:\.ts)?)?$/.test(source)) context.report({ node, messageId: 'foreign', data: { module: mod, table: 'every module' } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, String(node.source.value)),
    };
  },
};
