/** Elicitation answered without a terminal: declined, or accepted from a rules file when every value fits. */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { createRulesElicitor, declineElicitor } from '../../src/host/elicitRules.js';

const CONTEXT = { server: { name: 's', key: 'stdio:s' }, tool: 't' } as never;
const FORM: ElicitRequestFormParams = {
  message: 'Who and which colors?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      colors: { type: 'array', items: { type: 'string', enum: ['red', 'green', 'blue'] }, maxItems: 2 },
      size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }] },
      age: { type: 'integer', minimum: 0 },
      agree: { type: 'boolean' },
    },
    required: ['name', 'colors'],
  },
} as ElicitRequestFormParams;

describe('createRulesElicitor', () => {
  it('accepts with the values for the fields asked, when every required one fits', async () => {
    const elicit = createRulesElicitor({ name: 'Ada', colors: ['red', 'blue'], age: 36, unrelated: 'x' });
    expect(await elicit(FORM, CONTEXT)).toEqual({
      action: 'accept',
      content: { name: 'Ada', colors: ['red', 'blue'], age: 36 },
    });
  });

  it.each([
    ['a required field is missing', { name: 'Ada' }],
    ['a multi-select value outside its enum', { name: 'Ada', colors: ['pink'] }],
    ['more items than allowed', { name: 'Ada', colors: ['red', 'green', 'blue'] }],
    ['a value of another type', { name: 'Ada', colors: ['red'], age: '36' }],
    ['a titled option that is not offered', { name: 'Ada', colors: ['red'], size: 'xl' }],
    ['a fractional integer', { name: 'Ada', colors: ['red'], age: 1.5 }],
  ])('declines when %s', async (_name, answers) => {
    expect(await createRulesElicitor(answers)(FORM, CONTEXT)).toEqual({ action: 'decline' });
  });

  it('auto-decline declines everything', async () => {
    expect(await declineElicitor(FORM, CONTEXT)).toEqual({ action: 'decline' });
  });
});
