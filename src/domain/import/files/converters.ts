// The converter of each tool whose export files an import takes (converted.ts is their contract).
import { BadImportFile, type Converter, type FileTool } from './converted.js';
import { formbricks } from './formbricks.js';
import { googleForms } from './google-forms.js';
import { limesurvey } from './limesurvey/convert.js';
import { typeform } from './typeform.js';

const CONVERTERS: Partial<Record<FileTool, Converter>> = {
  limesurvey,
  typeform,
  'google-forms': googleForms,
  formbricks,
};

/** The tools whose files can be imported, in the order the page and the CLI list them. */
export const FILE_TOOLS: FileTool[] = (
  ['limesurvey', 'typeform', 'google-forms', 'formbricks'] as const
).filter((t) => CONVERTERS[t] !== undefined);

/** The converter of `tool`, or BadImportFile naming the tools there are. */
export function converterFor(tool: string): Converter {
  const found = Object.entries(CONVERTERS).find(([name]) => name === tool)?.[1];
  if (!found)
    throw new BadImportFile(`There is no importer for "${tool}": the tools are ${FILE_TOOLS.join(', ')}.`);
  return found;
}
