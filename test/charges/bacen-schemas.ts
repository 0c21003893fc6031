import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

/**
 * A validator for one of the central bank's schemas (the fixture copy of ../shared/reference/bacen-pix-api).
 * Two adjustments, both where the reference itself is not machine-checkable or where the interface spec
 * overrides it: PessoaFisica.cpf's pattern is written with regex slashes ("/^\d{11}$/", which no CPF
 * matches), and `location`/`loc.location` (maxLength 77, format uri) carry the EMV string as the
 * interface spec says (cob-view.ts).
 */
export function bacenValidator(schema: 'CobGerada' | 'CobCompleta') {
  const doc = YAML.parse(readFileSync(new URL('../fixtures/bacen-pix-api.openapi.yaml', import.meta.url), 'utf8'));
  const schemas = doc.components.schemas;
  schemas.PessoaFisica.properties.cpf.pattern = '^\\d{11}$';
  for (const part of schemas.CobGerada.allOf) {
    if (part.properties?.location) delete part.properties.location.maxLength, delete part.properties.location.format;
  }
  schemas.PayloadLocation = structuredClone(schemas.PayloadLocation);
  delete schemas.PayloadLocation.properties.location.maxLength;
  delete schemas.PayloadLocation.properties.location.format;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: { schemas } }, 'bacen');
  return ajv.compile({ $ref: `bacen#/components/schemas/${schema}` });
}
