import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app.ts';

describe('content pages', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-content-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write(
      'fr/about.md',
      '---\ntitle: Qui sommes-nous ?\ndescription: L’équipe\ntoc: true\nnavigation:\n  order: 2\n---\nIntro courte.\n<!--more-->\n## Notre histoire\nTexte.\n### Les débuts\nEncore.\n```\n## pas un titre\n```\n',
    );
    write('en/about.md', '---\ntitle: Who we are\nnavigation: true\n---\nHello.\n');
    write('fr/old.md', '---\ntitle: Ancienne page\nredirect: /about\n---\n');
    write('fr/ranked/index.md', '---\ntitle: Compétitions\n---\nListe.\n');
    write('fr/ranked/spring-cup.md', '---\ntitle: Coupe de printemps\ndate: 2027-04-10\nstatus: upcoming\n---\nUn tournoi.\n');
    t = await startTestApp({ CONTENT_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a page with its fields, excerpt and table of contents', async () => {
    const res = await t.app.inject({ url: '/_content/query/fr/about' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      path: '/about',
      locale: 'fr',
      title: 'Qui sommes-nous ?',
      description: 'L’équipe',
      layout: 'page',
      excerpt: 'Intro courte.',
      toc: [
        { id: 'notre-histoire', depth: 2, text: 'Notre histoire' },
        { id: 'les-debuts', depth: 3, text: 'Les débuts' },
      ],
      navigation: { title: 'Qui sommes-nous ?', order: 2 },
      redirect: null,
    });
    expect(res.json().body).not.toContain('<!--more-->');
  });

  it('answers a redirect, folder listings with extra fields, navigation per locale, and 404 otherwise', async () => {
    expect((await t.app.inject({ url: '/_content/query/fr/old' })).json().redirect).toBe('/about');
    const ranked = (await t.app.inject({ url: '/_content/list/fr/ranked' })).json();
    expect(ranked).toHaveLength(1);
    expect(ranked[0]).toMatchObject({ path: '/ranked/spring-cup', meta: { date: '2027-04-10', status: 'upcoming' } });
    expect((await t.app.inject({ url: '/_content/query/fr/ranked' })).json().title).toBe('Compétitions');
    expect((await t.app.inject({ url: '/_content/navigation?locale=en' })).json()).toEqual([{ path: '/about', title: 'Who we are', order: 0 }]);
    const missing = await t.app.inject({ url: '/_content/query/en/nothing' });
    expect(missing.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/_content/query/de/about' })).statusCode).toBe(400);
  });
});

describe('the shipped content', () => {
  const t = useShipped();
  function useShipped() {
    const holder = {} as { current: TestApp };
    beforeAll(async () => {
      holder.current = await startTestApp();
    });
    afterAll(() => holder.current.close());
    return holder;
  }

  it('has every information page in both languages, with the operator filled in', async () => {
    for (const locale of ['fr', 'en']) {
      for (const page of ['about', 'contact', 'legal', 'cgu', 'cgv', 'ranked']) {
        const res = await t.current.app.inject({ url: `/_content/query/${locale}/${page}` });
        expect(res.statusCode, `${locale}/${page}`).toBe(200);
        expect(res.json().body, `${locale}/${page}`).not.toContain('{{');
      }
      const legal = (await t.current.app.inject({ url: `/_content/query/${locale}/legal` })).json();
      expect(legal.body).toContain('BlockHost SAS');
    }
  });
});
