import { loadKb, type Kb } from '../../src/kb/load.ts';
import { createClassifier, type Classifier } from '../../src/classify/classify.ts';
import { compileReader, extractFacts } from '../../src/classify/facts/index.ts';
import { normalize } from '../../src/classify/normalize.ts';

/** The real kb and classifier, loaded once per test file. */
export const kb: Kb = loadKb();
let classifier: Classifier | undefined;
export const classify: Classifier = (text) => (classifier ??= createClassifier(kb))(text);
const reader = compileReader(kb);
export const factsOf = (text: string) => extractFacts(normalize(text), reader);
