import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/** Statements kept prepared at most; texts past it run as PGlite runs them. */
const MAX_STATEMENTS = 500;
/** Uses of a text before it is prepared: a text met once (an IN list of a rare length) is not kept. */
const USES_TO_PREPARE = 2;

interface Statement {
  name: string;
  /** Parameter types, as PostgreSQL inferred them when the statement was prepared. */
  types: number[];
}

/**
 * PGlite runs every `query` as six protocol messages, each a call into the engine, and parses and
 * plans its SQL again each time; the app runs a few hundred texts over and over. Here a text run
 * again becomes a named prepared statement (parsed and planned once, as drivers keep statements
 * on a PostgreSQL connection), and each run is bind, describe, execute and sync in one call.
 * Parameters are serialised for the types PostgreSQL gave at prepare time, as PGlite does, and
 * results parsed by PGlite's own parsers, so a query answers exactly what PGlite's would. The
 * client's other methods are its own, on the real client.
 */
export function withPreparedStatements(client: PGlite): PGlite {
  const statements = new Map<string, Statement>();
  const uses = new Map<string, number>();
  let named = 0;

  const call = (messages: Uint8Array[], options?: QueryOptions) => {
    const message = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
    let at = 0;
    for (const m of messages) {
      message.set(m, at);
      at += m.length;
    }
    return client.execProtocolStream(message, { syncToFs: false, ...(options?.onNotice ? { onNotice: options.onNotice } : {}) });
  };

  /** Whether to run the text prepared: it is, or it is met again and there is room for it. */
  const worthPreparing = (text: string): boolean => {
    if (statements.has(text)) return true;
    if (statements.size >= MAX_STATEMENTS) return false;
    const seen = (uses.get(text) ?? 0) + 1;
    if (seen >= USES_TO_PREPARE) {
      uses.delete(text);
      return true;
    }
    if (uses.size >= MAX_STATEMENTS * 4) uses.clear();
    uses.set(text, seen);
    return false;
  };

  const statementOf = async (text: string): Promise<Statement> => {
    const known = statements.get(text);
    if (known) return known;
    const name = `blockhost_${++named}`;
    const described = await call([protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]);
    const statement = { name, types: parse.parseDescribeStatementResults(described) };
    statements.set(text, statement);
    return statement;
  };

  /** Runs `text` as its prepared statement, under PGlite's query lock. */
  const run = <T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> =>
    client._runExclusiveQuery(async () => {
      let results: Results<T>;
      try {
        const statement = await statementOf(text);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = statement.types[i]!;
          const serialize = options?.serializers?.[type] ?? client.serializers[type];
          return serialize ? serialize(value) : String(value);
        });
        const messages = await call(
          [protocol.serialize.bind({ statement: statement.name, values: values as string[] }), protocol.serialize.describe({ type: 'P' }), protocol.serialize.execute({}), protocol.serialize.sync()],
          options,
        );
        // PGlite would copy its 300 parsers into a new object for each query given its own (drizzle gives
        // some): a few keys over them in a chain read the same.
        const parsers = options?.parsers ? Object.assign(Object.create(client.parsers) as typeof client.parsers, options.parsers) : client.parsers;
        results = parse.parseResults(messages, parsers, { ...options, parsers: undefined })[0] as Results<T>;
      } catch (err) {
        // As PGlite's own errors: the query and its parameters on the DatabaseError.
        if (err instanceof Error && 'severity' in err) Object.assign(err, { query: text, params, queryOptions: options });
        throw err;
      }
      if (!inTransaction) await client.syncToFs();
      return results;
    });

  // Options PGlite handles around the query (COPY blobs, fixed parameter types) keep its own path.
  const preparable = (text: string, options: QueryOptions | undefined) => !options?.blob && !options?.paramTypes && worthPreparing(text);

  const query = <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> =>
    preparable(text, options) ? client._runExclusiveTransaction(() => run<T>(text, params, options, false)) : client.query<T>(text, params, options);

  const transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    client.transaction((tx) =>
      callback(
        new Proxy(tx, {
          get(target, key, receiver) {
            if (key !== 'query') return Reflect.get(target, key, receiver);
            return <R>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<R>> =>
              !target.closed && preparable(text, options) ? run<R>(text, params, options, true) : target.query<R>(text, params, options);
          },
        }),
      ),
    );

  return new Proxy(client, {
    get(target, key) {
      if (key === 'query') return query;
      if (key === 'transaction') return transaction;
      // PGlite's methods use private fields: they run on the client itself.
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
