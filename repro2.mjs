import { Piscina } from 'piscina';
const file = process.argv[2]; const lo = +process.argv[3], hi = +process.argv[4];
const t0 = Date.now();
for (let i = 0; i < 400; i++) {
  const p = new Piscina({ filename: file, minThreads: 2, maxThreads: 2 });
  await new Promise(r => setTimeout(r, lo + Math.random() * (hi - lo)));
  await p.destroy();
  if (i % 50 === 0) console.log(i, Date.now() - t0);
}
console.log('done', Date.now() - t0);
