import fs from 'node:fs'; import path from 'node:path'; import ts from 'typescript';
const root = process.argv[2];
const files=[]; const walk=d=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const p=path.join(d,e.name); if(e.isDirectory()) walk(p); else if(p.endsWith('.ts')) files.push(p);}};
walk(path.join(root,'src'));
const fns=[]; let longest={len:0};
const over=[];
for (const f of files) {
  const text=fs.readFileSync(f,'utf8');
  text.split('\n').forEach((l,i)=>{ if(l.length>longest.len) longest={len:l.length,where:`${path.relative(root,f)}:${i+1}`}; if(l.length>140) over.push(f)});
  const sf=ts.createSourceFile(f,text,ts.ScriptTarget.Latest,true);
  const visit=n=>{ if(ts.isFunctionDeclaration(n)||ts.isMethodDeclaration(n)||ts.isArrowFunction(n)||ts.isFunctionExpression(n)||ts.isConstructorDeclaration(n)){ const a=sf.getLineAndCharacterOfPosition(n.getStart()).line, b=sf.getLineAndCharacterOfPosition(n.getEnd()).line; let name=n.name?.getText?.() ?? (ts.isVariableDeclaration(n.parent)? n.parent.name.getText(): '<anon>'); fns.push({lines:b-a+1,name,where:`${path.relative(root,f)}:${a+1}`}); } ts.forEachChild(n,visit); };
  visit(sf);
}
fns.sort((a,b)=>b.lines-a.lines);
console.log('longest line', longest, 'lines>140 in src:', over.length);
console.log(fns.filter(f=>!f.where.includes('sandbox')).slice(0,6).map(f=>`${f.lines} ${f.name} ${f.where}`).join('\n'));
console.log('incl sandbox top:', fns.slice(0,3).map(f=>`${f.lines} ${f.name} ${f.where}`).join(' | '));
