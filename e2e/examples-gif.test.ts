import { describeExampleRenders, exampleKeys } from './example-renders.ts';

describeExampleRenders('gif', await exampleKeys());
