import { describeExampleRenders, exampleKeys } from './example-renders.ts';

describeExampleRenders('mp4', await exampleKeys());
