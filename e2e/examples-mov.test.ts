import { describeExampleRenders, exampleKeys } from './example-renders.ts';

describeExampleRenders('mov', await exampleKeys());
