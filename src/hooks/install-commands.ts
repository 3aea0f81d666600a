/**
 * How to install AUREUS, said the same way by every hint. AUREUS installs from its own
 * repository (a clone, or the tarball `npm pack` makes in it), not from the npm registry, where
 * the name `aureus` is not AUREUS's: a hint naming it would have people, and their hooks, run
 * whatever someone publishes under that name. No single quote: the plain hooks echo them.
 */
export const GLOBAL_INSTALL =
  'npm install --global <an AUREUS clone, or the .tgz that npm pack makes in it>';

export const PROJECT_INSTALL =
  'npm install --save-dev <the .tgz that npm pack makes in an AUREUS clone>';
