/**
 * A secretlint rule made from a scanner: `reportAll` walks the source and reports each finding by kind; the kinds'
 * labels become the rule's messages. Our own rules (extraRules.ts, providerRules.ts) are made this way.
 */
import type { SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';

export function scannerRule<K extends string>(
  id: string,
  kinds: Readonly<Record<K, string>>,
  reportAll: (source: SecretLintSourceCode, report: (kind: K, range: [number, number]) => void) => void,
): SecretLintRuleCreator {
  const messages = Object.fromEntries(
    Object.entries<string>(kinds).map(([kind, label]) => [kind, { en: () => `found ${label}` }]),
  );
  return {
    messages,
    meta: { id, type: 'scanner', recommended: true, supportedContentTypes: ['text'] },
    create(context) {
      const t = context.createTranslator(messages);
      return {
        file(source) {
          reportAll(source, (kind, range) => context.report({ message: t(kind), range }));
        },
      };
    },
  };
}
