import { defineConfig } from 'tsup';
import { binaryBuilds } from './tsup.binary.js';
export default [defineConfig(binaryBuilds()[0])];
