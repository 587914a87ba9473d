/**
 * A model plan whose server-owned models report when each call starts and ends, for a front that shows progress
 * while a model thinks (`summarize`'s status line). The plan chooses exactly as before; only `complete` is
 * wrapped. The built-in heuristic is not reported: it answers at once.
 */
import type { CompletionModel } from './modelSource.js';
import type { ModelPlan, ModelSource } from './sources.js';

export interface ModelCallObserver {
  /** A call to `model` for input `key` starts; the function returned is called once when it ends. */
  started(model: string, key: string): () => void;
}

export function observeModelCalls(plan: ModelPlan, observer: ModelCallObserver): ModelPlan {
  // One wrapped source per model, so a plan that hands out the same model keeps handing out one source.
  const observed = new Map<CompletionModel, ModelSource>();
  const wrap = (model: CompletionModel): CompletionModel => ({
    name: model.name,
    ...(model.usesTools !== undefined && { usesTools: model.usesTools }),
    async complete(request) {
      const ended = observer.started(model.name, request.key);
      try {
        return await model.complete(request);
      } finally {
        ended();
      }
    },
  });
  return {
    spec: plan.spec,
    ...(plan.budget !== undefined && { budget: plan.budget }),
    sourceFor(key, capabilities) {
      const source = plan.sourceFor(key, capabilities);
      if (source?.kind !== 'server') return source;
      let wrapped = observed.get(source.model);
      if (wrapped === undefined) {
        wrapped = { kind: 'server', model: wrap(source.model) };
        observed.set(source.model, wrapped);
      }
      return wrapped;
    },
  };
}
