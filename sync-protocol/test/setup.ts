// Property tests draw new random inputs on every local run to keep exploring; under CI they
// replay one fixed seed, so a red build always means a change broke something.
import fc from 'fast-check';

if (process.env.CI) fc.configureGlobal({ seed: 20261121 });
