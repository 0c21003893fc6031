import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, translator, type MessageKey } from '../../src/portal/i18n.ts';

const PORTAL = fileURLToPath(new URL('../../src/portal/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the portal speaks through one catalogue', () => {
  it('has every key in both languages, with the same placeholders, and each key in one area only', () => {
    const seen = new Map<string, string>();
    for (const [area, { en, ptBR }] of Object.entries(CATALOGUES)) {
      const enTable = en as Record<string, string>;
      const ptTable = ptBR as Record<string, string>;
      expect(Object.keys(ptTable).sort(), `area ${area}`).toEqual(Object.keys(enTable).sort());
      for (const key of Object.keys(enTable)) {
        expect(seen.get(key), `key ${key} of ${area} also in ${seen.get(key)}`).toBeUndefined();
        seen.set(key, area);
        expect(enTable[key]!.trim(), `${area}.${key} (en)`).not.toBe('');
        expect(ptTable[key]!.trim(), `${area}.${key} (pt-BR)`).not.toBe('');
        expect(placeholders(ptTable[key]!), `${area}.${key}`).toEqual(placeholders(enTable[key]!));
      }
    }
    // The translator fills the placeholders in each language.
    expect(translator('en')('tooManyAttempts' as MessageKey, { minutes: 3 })).toBe('Too many failed attempts. Try again in 3 min.');
    expect(translator('pt-BR')('tooManyAttempts' as MessageKey, { minutes: 3 })).toBe('Muitas tentativas sem sucesso. Tente de novo em 3 min.');
  });

  it('has no page choosing its words by an inline language test', () => {
    const offenders: string[] = [];
    for (const path of filesUnder(PORTAL)) {
      const name = relative(PORTAL, path);
      if (name === 'i18n.ts' || name.startsWith('messages/')) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          // `lang === 'en' ? ... : ...`, `const en = ctx.lang === 'en'` then `en ? ... : ...`, `[en ? 0 : 1]`.
          if (/\blang\s*[!=]==?\s*['"]/.test(line) || /\b(en|pt)\s*\?[^.?]/.test(line) || /['"](en|pt-BR)['"]\s*[!=]==?\s*[\w.]*lang\b/.test(line)) {
            offenders.push(`${name}:${index + 1}: ${line.trim().slice(0, 120)}`);
          }
        });
    }
    expect(offenders).toEqual([]);
  });
});
