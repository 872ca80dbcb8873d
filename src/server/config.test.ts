import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs everything embedded by default', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({ port: 8080, publicUrl: 'http://localhost:8080', dataDir: '/srv/app/data', databaseUrl: undefined });
    expect(config.oidc).toMatchObject({ issuer: 'http://localhost:8080/oidc', embedded: true, clientId: 'web', audience: 'api', keysFile: '/srv/app/data/oidc-keys.json' });
    expect(config.internalToken).toBeUndefined();
    expect(config.minecraft.apiUrl).toBeUndefined();
  });

  it('runs a renewals round at least every minute, sooner with RENEWAL_INTERVAL_MS, and refuses a pause under a second', () => {
    expect(loadConfig({}).renewals).toEqual({ noticeDays: 3, retentionDays: 30, intervalMs: 60_000 });
    expect(loadConfig({ RENEWAL_INTERVAL_MS: '5000' }).renewals.intervalMs).toBe(5000);
    expect(() => loadConfig({ RENEWAL_INTERVAL_MS: '10' })).toThrow(/RENEWAL_INTERVAL_MS/);
  });

  it('switches Minecraft profiles to Mojang with MOJANG_API_URL, the session server defaulting to Mojang’s', () => {
    expect(loadConfig({ MOJANG_API_URL: 'https://api.mojang.com/' }).minecraft).toEqual({ apiUrl: 'https://api.mojang.com', sessionUrl: 'https://sessionserver.mojang.com' });
    expect(loadConfig({ MOJANG_API_URL: 'http://mojang.test', MOJANG_SESSION_URL: 'http://session.test' }).minecraft.sessionUrl).toBe('http://session.test');
  });

  it('offers voice chat only with MUMBLE_HOST, on port 64738 unless MUMBLE_PORT says otherwise', () => {
    expect(loadConfig({}).mumble).toBeNull();
    expect(loadConfig({ MUMBLE_HOST: 'voice.example.com' }).mumble).toEqual({ host: 'voice.example.com', port: 64738 });
    expect(loadConfig({ MUMBLE_HOST: '10.0.0.5', MUMBLE_PORT: '50000' }).mumble).toEqual({ host: '10.0.0.5', port: 50000 });
    expect(() => loadConfig({ MUMBLE_HOST: 'voice.example.com', MUMBLE_PORT: '70000' })).toThrow('MUMBLE_PORT="70000" is invalid: expected a whole number from 1 to 65535');
    expect(() => loadConfig({ MUMBLE_HOST: 'mumble://voice.example.com' })).toThrow('MUMBLE_HOST is invalid: expected a host name or IP address');
    expect(() => loadConfig({ MUMBLE_PORT: '64738' })).toThrow(/MUMBLE_PORT is set but MUMBLE_HOST is not/);
  });

  it('switches to PostgreSQL and Keycloak by configuration alone', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', OIDC_ISSUER: 'https://sso.example.com/realms/blockhost/' });
    expect(config.databaseUrl).toBe('postgres://u@db:5432/app');
    expect(config.oidc).toMatchObject({ issuer: 'https://sso.example.com/realms/blockhost', embedded: false });
  });

  it('runs the game gateway only when asked (npm start asks for 25565), in front of names under GAME_DOMAIN', () => {
    const defaults = { process: false, apiUrl: 'http://127.0.0.1:8080', maxConnections: 5000, connectionsPerAddress: 50 };
    expect(loadConfig({}).gateway).toEqual({ port: null, domain: 'localhost', ...defaults });
    expect(loadConfig({ GAME_GATEWAY_PORT: 'off' }).gateway.port).toBeNull();
    expect(loadConfig({ GAME_GATEWAY_PORT: '25565', GAME_DOMAIN: 'play.example.com' }).gateway).toEqual({ port: 25565, domain: 'play.example.com', ...defaults });
  });

  it('leaves the port to a gateway process when told so, 25565 unless another is given, and bounds its connections', () => {
    expect(loadConfig({ GAME_GATEWAY_PROCESS: 'true', PORT: '3000' }).gateway).toMatchObject({ port: 25565, process: true, apiUrl: 'http://127.0.0.1:3000' });
    expect(
      loadConfig({
        GAME_GATEWAY_PROCESS: 'true',
        GAME_GATEWAY_PORT: '25000',
        GAME_GATEWAY_API_URL: 'http://api.blockhost.svc/',
        GAME_GATEWAY_MAX_CONNECTIONS: '200',
        GAME_GATEWAY_CONNECTIONS_PER_ADDRESS: '4',
      }).gateway,
    ).toMatchObject({ port: 25000, apiUrl: 'http://api.blockhost.svc', maxConnections: 200, connectionsPerAddress: 4 });
  });

  it('hosts games locally by default, on Kubernetes by configuration', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://blockhost.example.com' }, '/srv/app').game).toEqual({
      driver: 'local',
      dataDir: '/srv/app/data',
      host: 'blockhost.example.com',
      portRange: { from: 25566, to: 25665 },
      kubernetes: expect.objectContaining({ apiUrl: 'https://kubernetes.default.svc', namespace: 'default', image: 'itzg/minecraft-server' }),
    });
    const agones = loadConfig({
      GAME_DRIVER: 'agones',
      KUBERNETES_API_URL: 'https://k8s.example.com:6443',
      KUBERNETES_TOKEN: 'abc.def',
      KUBERNETES_NAMESPACE: 'games',
      GAME_HOST: 'play.example.com',
      GAME_PORT_RANGE: '30000-30099',
    });
    expect(agones.game).toMatchObject({
      driver: 'agones',
      host: 'play.example.com',
      portRange: { from: 30000, to: 30099 },
      kubernetes: { apiUrl: 'https://k8s.example.com:6443', token: 'abc.def', namespace: 'games' },
    });
  });

  it('trusts the Kubernetes API certificate from KUBERNETES_CA_FILE, checked at start', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-config-'));
    try {
      fs.writeFileSync(path.join(dir, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      fs.writeFileSync(path.join(dir, 'token'), 'abc.def');
      expect(loadConfig({ KUBERNETES_CA_FILE: 'ca.crt' }, dir).game.kubernetes.caFile).toBe(path.join(dir, 'ca.crt'));
      expect(() => loadConfig({ KUBERNETES_CA_FILE: 'token' }, dir)).toThrow('KUBERNETES_CA_FILE="token" is invalid: expected a PEM file of CA certificates');
      expect(() => loadConfig({ KUBERNETES_CA_FILE: 'missing.crt' }, dir)).toThrow('KUBERNETES_CA_FILE="missing.crt" is invalid: expected a readable PEM file of CA certificates (ENOENT)');
      expect(() => loadConfig({ KUBERNETES_CA_FILE: '.' }, dir)).toThrow('KUBERNETES_CA_FILE="." is invalid: expected a readable PEM file of CA certificates (EISDIR)');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the cluster and credentials from KUBECONFIG, checked at start, the namespace from KUBERNETES_NAMESPACE first', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-config-'));
    try {
      const kubeconfig = (context: string) =>
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          '- name: dev',
          '  cluster: {server: "https://10.0.0.1:6443", certificate-authority: ca.crt}',
          'users:',
          '- name: me',
          '  user: {client-certificate: me.crt, client-key: me.key}',
          'contexts:',
          '- name: dev',
          `  context: ${context}`,
          'current-context: dev',
        ].join('\n');
      fs.writeFileSync(path.join(dir, 'config'), kubeconfig('{cluster: dev, user: me, namespace: games}'));
      fs.writeFileSync(path.join(dir, 'no-cluster'), kubeconfig('{cluster: prod, user: me}'));
      const agones = { GAME_DRIVER: 'agones' };
      // No token is needed (none is in this machine's /var/run/secrets): the kubeconfig's user is the credentials; its
      // context's namespace is resolved by the driver.
      expect(loadConfig({ ...agones, KUBECONFIG: 'config' }, dir).game.kubernetes).toEqual({
        kubeconfig: path.join(dir, 'config'),
        image: 'itzg/minecraft-server',
        worldSize: '2Gi',
        toolImage: undefined,
      });
      expect(loadConfig({ GAME_DRIVER: 'agones', KUBECONFIG: path.join(dir, 'config'), KUBERNETES_NAMESPACE: 'other' }).game.kubernetes).toMatchObject({
        kubeconfig: path.join(dir, 'config'),
        namespace: 'other',
      });
      expect(() => loadConfig({ GAME_DRIVER: 'agones', KUBECONFIG: 'missing' }, dir)).toThrow('KUBECONFIG="missing" is invalid: expected a readable kubeconfig file with a current context (ENOENT)');
      expect(() => loadConfig({ GAME_DRIVER: 'agones', KUBECONFIG: '.' }, dir)).toThrow('KUBECONFIG="." is invalid: expected a readable kubeconfig file with a current context (EISDIR)');
      expect(() => loadConfig({ GAME_DRIVER: 'agones', KUBECONFIG: 'no-cluster' }, dir)).toThrow(
        'KUBECONFIG="no-cluster" is invalid: expected a readable kubeconfig file with a current context (the cluster "prod" of its current context has no http(s):// server)',
      );
      expect(() => loadConfig({ GAME_DRIVER: 'agones', KUBECONFIG: 'config', KUBERNETES_API_URL: 'https://k8s', KUBERNETES_TOKEN: 't' }, dir)).toThrow(
        "KUBECONFIG is set with KUBERNETES_API_URL, KUBERNETES_TOKEN: the kubeconfig's current context gives the cluster and credentials, so set one or the other",
      );
      // The local driver has no use for it: a shell's KUBECONFIG does not stop the start.
      expect(loadConfig({ KUBECONFIG: 'missing' }, dir).game.kubernetes).not.toHaveProperty('kubeconfig');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps backups and images under DATA_DIR by default, in one S3 bucket by configuration', () => {
    expect(loadConfig({}, '/srv/app').backupStore).toEqual({ kind: 'local', root: '/srv/app/data/backups' });
    expect(loadConfig({}, '/srv/app').mediaStore).toEqual({ kind: 'local', root: '/srv/app/data' });
    const s3 = { BACKUP_STORE: 's3', S3_BUCKET: 'blockhost-backups', S3_ACCESS_KEY_ID: 'AKIA123', S3_SECRET_ACCESS_KEY: 'secret/key+1' };
    expect(loadConfig(s3).mediaStore).toEqual(loadConfig(s3).backupStore);
    expect(loadConfig(s3).backupStore).toEqual({
      kind: 's3',
      endpoint: undefined,
      region: 'us-east-1',
      bucket: 'blockhost-backups',
      accessKeyId: 'AKIA123',
      secretAccessKey: 'secret/key+1',
      forcePathStyle: false,
    });
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'https://s3.fr-par.example.com/', S3_REGION: 'fr-par', S3_FORCE_PATH_STYLE: 'true' }).backupStore).toMatchObject({
      endpoint: 'https://s3.fr-par.example.com',
      region: 'fr-par',
      forcePathStyle: true,
    });
    expect(() => loadConfig({ BACKUP_STORE: 's3', S3_ACCESS_KEY_ID: 'AKIA123', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow('S3_BUCKET is required when BACKUP_STORE=s3');
    expect(() => loadConfig({ BACKUP_STORE: 's3', S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow('S3_ACCESS_KEY_ID is required when BACKUP_STORE=s3');
    expect(() => loadConfig({ BACKUP_STORE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'AKIA123' })).toThrow('S3_SECRET_ACCESS_KEY is required when BACKUP_STORE=s3');
    expect(() => loadConfig({ BACKUP_STORE: 'ftp' })).toThrow('BACKUP_STORE="ftp" is invalid: expected one of local, s3');
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'My_Bucket' })).toThrow('S3_BUCKET is invalid: expected a bucket name');
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'maybe' })).toThrow('S3_FORCE_PATH_STYLE="maybe" is invalid: expected true or false');
  });

  it.each([
    [{ GAME_DRIVER: 'docker' }, 'GAME_DRIVER="docker" is invalid: expected one of local, agones'],
    [{ GAME_PORT_RANGE: '25565' }, 'GAME_PORT_RANGE="25565" is invalid: expected a range of at least two ports like 25565-25664'],
    [{ GAME_PORT_RANGE: '30010-30000' }, 'GAME_PORT_RANGE="30010-30000" is invalid'],
    [{ GAME_PORT_RANGE: '80-90' }, 'GAME_PORT_RANGE="80-90" is invalid'],
    [{ GAME_HOST: 'play example' }, 'GAME_HOST is invalid: expected a host name or IP address'],
    [{ GAME_GATEWAY_PORT: 'on' }, 'GAME_GATEWAY_PORT="on" is invalid: expected a port from 0 to 65535, or off'],
    [{ GAME_GATEWAY_PORT: '70000' }, 'GAME_GATEWAY_PORT="70000" is invalid'],
    [{ GAME_GATEWAY_PORT: '25600' }, 'GAME_GATEWAY_PORT=25600 is inside GAME_PORT_RANGE (25566-25665)'],
    [{ GAME_DOMAIN: 'Play.Example.com' }, 'GAME_DOMAIN is invalid: expected a lowercase host name'],
    [{ GAME_GATEWAY_PROCESS: 'true', GAME_GATEWAY_PORT: 'off' }, 'GAME_GATEWAY_PORT=off and GAME_GATEWAY_PROCESS=true'],
    [{ GAME_GATEWAY_MAX_CONNECTIONS: '0' }, 'GAME_GATEWAY_MAX_CONNECTIONS'],
    [{ GAME_GATEWAY_API_URL: 'ftp://api' }, 'GAME_GATEWAY_API_URL'],
    [{ MC_SERVER_JAR: '/nowhere/server.jar' }, 'MC_SERVER_JAR="/nowhere/server.jar" is invalid: expected the path of an existing .jar file'],
    [{ GAME_DRIVER: 'agones', KUBERNETES_TOKEN_FILE: '/nowhere/token' }, 'KUBERNETES_TOKEN is required when GAME_DRIVER=agones and no token file is at /nowhere/token'],
    [{ KUBERNETES_NAMESPACE: 'Games!' }, 'KUBERNETES_NAMESPACE is invalid: expected a Kubernetes namespace name'],
    [{ KUBERNETES_API_URL: 'k8s' }, 'KUBERNETES_API_URL="k8s" is invalid: expected an absolute URL'],
  ])('refuses game hosting setting %o naming it', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT="eighty" is invalid: expected a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT="70000" is invalid'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x" is invalid: expected a URL starting with postgres:// or postgresql://'],
    [{ OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER="not a url" is invalid: expected an absolute URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL="loud" is invalid: expected one of fatal, error, warn, info, debug, trace, silent'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY="maybe" is invalid: expected true or false'],
    [{ INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN is invalid: expected a secret of 16 to 200 characters'],
    [{ STRIPE_SECRET_KEY: 'pk_test_abc' }, 'STRIPE_SECRET_KEY is invalid: expected a Stripe secret key'],
    [{ MOJANG_API_URL: 'api.mojang.com' }, 'MOJANG_API_URL="api.mojang.com" is invalid: expected an absolute URL'],
    [{ MOJANG_SESSION_URL: 'ftp://session.test' }, 'MOJANG_SESSION_URL="ftp://session.test" is invalid: expected a URL starting with https:// or http://'],
  ])('refuses %o naming the variable and what it accepts', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
