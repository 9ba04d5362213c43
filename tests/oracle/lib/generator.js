'use strict';
function generate() { return []; }
module.exports = { generate };
