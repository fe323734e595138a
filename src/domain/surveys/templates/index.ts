// The template library (GET /survey_templates, POST /surveys from_template_id): written by us,
// kept as data in this folder, grouped into the categories below.
import type { Template } from './build.js';
import { communityTemplates } from './community.js';
import { customerTemplates } from './customers.js';
import { peopleTemplates } from './people.js';

export type { Template };

export const CATEGORIES: ReadonlyArray<{ id: string; name: string }> = [
  { id: 'community', name: 'Community' },
  { id: 'customer_feedback', name: 'Customer Feedback' },
  { id: 'education', name: 'Education' },
  { id: 'events', name: 'Events' },
  { id: 'healthcare', name: 'Healthcare' },
  { id: 'human_resources', name: 'Human Resources' },
  { id: 'market_research', name: 'Market Research' },
  { id: 'non_profit', name: 'Non-Profit' },
];

export const TEMPLATES: readonly Template[] = [
  ...customerTemplates,
  ...peopleTemplates,
  ...communityTemplates,
];

const byId = new Map(TEMPLATES.map((t) => [t.id, t]));

export function findTemplate(id: string): Template | undefined {
  return byId.get(id);
}

export function templateQuestionCount(t: Template): number {
  return t.pages.reduce((n, p) => n + p.questions.length, 0);
}
