import { describeExampleRenders, exampleKeys } from './example-renders.ts';

describeExampleRenders('transparent', await exampleKeys());
