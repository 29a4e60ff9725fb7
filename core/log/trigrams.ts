/**
 * How common each trigram of the prefilter's alphabet (prefilter.ts) is in build logs: the share
 * of lines holding it, in powers of two (bucket k: at least 2^-(k+1) of lines), measured once on
 * the LogChunks dev logs and test/fixtures (each log weighing the same). Letters are written in
 * lower case, `.` stands for every character outside the alphabet, `0` for any digit.
 *
 * Only a cost model: prefilter.ts prefers the rarest trigram of a pattern as its gate. Which
 * lines match never depends on it.
 */
export const COMMON_TRIGRAMS: readonly string[] = [
  // bucket 0: 0 trigrams
  '',
  // bucket 1: 4 trigrams
  "0.000..00000",
  // bucket 2: 10 trigrams
  "ing....0.ng  ..   ion 00 . . .",
  // bucket 3: 33 trigrams
  ".. comt00ested lin00t0t000z00 tes0. 0z  0..cover  .ersstasio coe. rsi inuilbuitratios..ted" +
    ". 0.inild",
  // bucket 4: 142 trigrams
  " veileon ine  0ttphtt.0 runate. tithom.me..   (0. sect tene.cheserent.reer or ts. rez .st." +
    "foron.pacer.s. omp htterallvisodeis.con toe . painfproin nfothe. catih .ps.tinerraviuse.sh" +
    "gites.ravin. noinsed.sh le..tr foackresrrobasageto ailrorste.te stass.maorg uslibtpsomeeli" +
    "endfilng.pip.pi0 .essreale nine.t lital. pachashrg.taror..deandshe seat e c buipeo. pel.ho" +
    "artfo..ruhom0..cti. h.liuntworci..gist  exd. ststhuld.datnst fi ci",
  // bucket 5: 356 trigrams
  "finhe fai..g fadin(0.by ons maorkavaub.a.0t .. fhubte.perbines . (. rstr thortwitp.rb.c.bi" +
    " by.prlesnd torbleld catll .orpil.pympiledvensinure .0.ja .xonejav. emp.cess.csysabl. n.us" +
    "owniniintprekingros .porcaltho rutmpd00 .t.buope derteame 0 (00modit .tmn 0n. pase..ns.rep" +
    "th rou.caase wihed dor. 0 (lical.s.tcacnot ofll.heli.s shun outeadertof rat.en priteoreoun" +
    "up.istg od b0.cicais und.xe baen.tchse.jecellnodrtire..bace. ortri..tive.pa syce l. usrbun" +
    ".rfssiplenamtimginrc..stcodxe 0 se.che.dowtemnteimeunn.exwar.gooup00sre va.p..loascr .esed" +
    "recishrf.oad0.p.no., criaint cextnnin .v0.se .atparuled .0 0t. acenderomgetipt.mohons.bost" +
    "tp.emog. ssempllatinkrindirit.objript.0maiommlle. o sue.0disencsrcrs.ave.ap..eact. m unbje" +
    "..rnise sfro. gangt oet.herok e 0 erereatand.. aom ne . i caili .u.ve frks.nt mans.0remlea" +
    "arnnt.eradedte s (pytpenyst asecupli .hde eleour.sc0 multset .iindstd.lo anntu.grubu0, as " +
    "ot typepode.yths.pexemd0ypes.r iso .ctsg tonfuplws.r cequeckullmatamdptimenhecervredpate.s" +
    "apprcel .go.dupn.bpos obdli.fi ok.ness.inuormireecoexp.wsty.iluoca.diler.gecce",
  // bucket 6: 582 trigrams
  "locs.srt et e fn.0nks. dote.sespas siesr . walurgrackagensr.etedepxecchinlo .swnlutiplu.cl" +
    "adeakehang irubkag .p0.acurexitagret .ce targal chan bnuxy uttemar onlugmavedlodudle .msou" +
    "ubyarecouderen ut secntidefnnee itdut.tnermmaio.cute aurc v0g . eng a chreqnalturts .wontr" +
    "icet sf.wg cme  gotabeasdul taugidonqueedipy.s.gux.ses tr00,. bb00..0ge .am0 clancor at.un" +
    "debmotldic00 diali moy.0r.bnpms ft.s upe.oex.log0  pt.n tcen .ndevnfipm .sueth.jstatrkse.j" +
    "uni .bettmont.pm.t.pl0s. loastopt.erusiust.httenranathors a utels.makesoe.aatc .fsucck lec" +
    "ernms scan0.kerc .lliss anc00etree00ch.t.cgs.rch  t.lar.pd f.foge.rop wo0.dnit00bletnsex00" +
    "0b0ontib.lowkspcki soracdenralxitch m.genvta.ski0d0n w beref msaritivt 0hinfig..psto0e0.ta" +
    " mie.p .of000c0ds.c. ..i navalrelover..arcren0 ud.sly colve.tu0.sia00ond00dbercked a00c cu" +
    "rocrite.inetpped ssho.pod ccli0ub  cmin .wucc.tondlncek  rt.ipppedcc d pd tuesges.0uadi0f0" +
    "ala ne gig pm.aee rsen  ticermry  sc00freekipd wtruoffndsd oe l0 t ap sk.acthiy .oceson0a0" +
    "imp0.,y..ina..sclodocr  evick.t..etcialus.hosnki ouan 0.ghisorylisnewrma.mi. urve00a0z.ept" +
    "efinpacter tg ftie srt (no  ce .rndoncy.jeaulby.rna.ciz  iltg saut.wafaury.r vaddockut.itt" +
    "reu.opms.rge..d0.marsm .s.fefat fr 0e.mlastilonnflaz. n f.ofene medgr tiouserintsrkefoumer" +
    "..uapa.arm.ebra..md  ruscs.s nign .dthr ( t tria puinc opeatroo (sn.cbacpridelr.0nonrnieac" +
    "p .g dvintooy0.ool gerig( 0u0.neclt.d 0g.m cse eapijenctourlth.ct  jaenkar 0 h0 ft.rhenunp" +
    "xpomissh.ir.zip.e s, r an.ss acang.sn.pears.ae bid.nedags pls.mn.ogo  clm.sd iaryar..ch.ty" +
    ", .e  uncannever.spla..ccopsha, 0tep.utev.ct.s i arcust.n.iometotapesclaator sttimpoootfet" +
    "tex npupdizeillgem lapdaum.s 0z s.ub, dcy.o.engee nep totityno.flogleys esccep0.iz betrose" +
    ".o tasla..viup b .emelagwheo ssit.we",
  // bucket 7: 769 trigrams
  "  a alt  seenow.het vs t whnchn a..lstirs web.ivivy. l.etllosup0.lrapatuew g.jn..issoriiti" +
    "t.gcarensrib t0. wvy0ydantacres cn.rsr mitt im c.meilst r pondgbutad. piheaen0vyd0 b.cpxtr" +
    " cpcpu.doorduthe.rr.t.pemespu.emaighpplad g.cepek 0regk .e (..v ado udor(..riccsyil.0.s.al" +
    " .vo tg rt.jsels  eturamrulfunfulupprev.nat.mot.ront ahresofm. an.dex0 p  fd.m .gs voftudo" +
    " ac.pu0 kvm.. von0onisoltryarkboot.d..o het.aput..n..hn o pyr.lpecs.oidee oaccstyknognul.0" +
    "eume.uw.ce mt.iip.0.oookgre.sy.daoulve opyghte.dp.0g u.srollscid.n  ioldsubr.jrreytewn.eb " +
    "o.r.c erl0 ay. d.ctopow.hatpi.cmeradluascouns.anthajarlenkeyppoem. fe, feplvar .l0.b (.r i" +
    "alsptsh 0ampo0.tifty s.wfol (curnl vrieel.fliacmantke s.lr.gncodececesudmedrd.e pulde vd.0" +
    "sqll.c.twe, ltis.ns.daskf p daplod rarahivl 0lons w0 oh. epaemppomvic vas.et bwilmptenatst" +
    "alue w.sod.rmac..wfixy ii.phouil ap.utolitgccesed nrvm00mdesg lluesigqui.gn kbecha. har.fu" +
    "pul.luvimp 0numibrip casbe ked vio b  dpp.jobb.0vexebud e. j.emke..le, pel dett.lnda  sbug" +
    ".gcp. (dee u.th.npstc.ti.upa.l.vaxaml srn b.ssim..a 0,un.t.foketu.n.tmasns attrgoualt mstt" +
    " amn.aic d0.y.syouosiunk tynats o  eneseamcmaolss.herco.ms.jlt d.ensc aud...0,tailiehasr m" +
    "x.gn.lmulmore.ef ..o0twa..fpon0mselpffl  (emsuri ha siwrifernexinvifito.d.t (de.l  lulaeta" +
    "esutfoolv0 iafed.p idpe twiy.cgerienkflclutecerda.sm e, iod.o0 .asuit.sprkfexc.fa.cmspoibu" +
    "ecan sttymbes.iapsf trm am.xt saf.crg mbs..s.fir0.jrotobs.p r.cabbejawinfreuirtan0 lrvidit" +
    "tmlhtmickftwotorn.b 0em js eoum.ias.t.erl rara.ag.ajs.  vn.mansc.cjsoume.ce.x0tth fu(sh c." +
    "ndi, s.bof 0.nuo ros.0s , ewale.fm.cml.engnctntollys.ud, u.cxcet pongc.m. yop.l.pelaibcrag" +
    "ir rneimaakkeer itnorcleka.eduyin (tfte.jo peiankkaxt.y.,rmin.ealen cmouirowwwww.rm. weany" +
    "enimapauslsel0.bmon0 ken.tsd (mprr p..brojspe.rvioucei.flowstdoptysui.csvm  ccn i, c .a, r" +
    "po.virmeo* .at. grbliam .wimicifys pnu n uespm.vpm.vio spg hn m (bl (nv.bbe yopt eltaftots" +
    "yrig..g 0f.0  rpyrr (  p, tsulue ag.eivc0.ql ecirown lbatjab cr wrm (o vgop imtus.elm vtia" +
    "g.0nknlidarrardm.uht r.fpo0d.gig.cksurrly.synp locsc.0nme * rosfe.d gonom.m.ake ditora.hut" +
    "exanuleanlizoprdb faloinpurisit htacfo  rophpl.se.gtoc.agesal r.phsenxpecpsrtse rsagnvie0." +
    "ltaol.va ew.rra.auadle.n.aby.ot.o(c..frta .ww brchoshu, blud0,0ein.rongsx.i utiabic.wer,00" +
    "l.o.txphacmdswimemo.sr dp.orl.0x0utdeprpe.nsirovh.00.ronm",
  // bucket 8: 905 trigrams
  "xter fodit.wusla pls t0.e.hilaroxt.v afedet lloyy.ussatu  .,nag hotronclm wacshod.imoxym.p" +
    "uchua.mpaug mag sao cfacsk shi rad mimigceketl  igunu.os txt0.f  odifwn m h (mog.bitn.d le" +
    "lacnnosche.v.mun ngurix.cer (eed,g.pcovp n  gog o.cvy.rypn eguaefoif onam ibytee.ocours.ha" +
    "pl.t wa0.kb.alhy 0cro.saictetswhi.slnanagipteoti fl0 dkdiy spad0.tphoig ogrfic..,mkd.zi.ob" +
    "igrlossumovyoovnabxy.neleb.o.dslydoepublhonv  abpeeebaducpinop ngun, .ranrelp py movf.gerg" +
    "urab. s rim.m.rh ac.sy vepsrdeats.c.tcob0.piciscib (cporan.j(bu0 e ipesierfr rh tloogoct e" +
    "larey oncfiemrcid eedivimigicst gc.ph.ch erkil.uabiltsk (ssl.kemmogofolobstus un(do d habs" +
    "psen rl.tgnai.0, vl..iblatfisetupn vngosprw tr lcel..*rk. ec .que.snap.tvedinpquauctnvox.a" +
    "ovid.lplyaboolupstr.al.mhroev napc.afs.ltegnoiedt.uhopl pt uaniny.y t(retpuoflm.nap ff .ur" +
    " ifyncy.r.s rd utfcryg n.adeb0egic.lo.0n ( kehemaptanojunt.hffer.iublimummer.ul tvacutpy.t" +
    "p.aa.cnsuyptnime.bngikefdb.d.aadapkgug.umbe h 0xckocxxlayhalo e.0xm 0c  npuehaichrogho d.," +
    "ft.e g (r.ssbloofit dm rds hotborg.lf0.gedacllorha0rtya.baglk vrolp.sm t.qubea boy r0 rtom" +
    " cxl.edre elh..ggertuegra 0sla, ludenarxx vido 0iffp.dm.jhorcssrns je.idy abarvelrokod fy." +
    "0.nzedl cec.(emoglsthojemmio.n.bl.a.al0ou gzi.fse0 eepebil bra  evix hit.*(*(.y.my.pr oiph" +
    "  bbiassfrivc..raymyse.w.jur erb.ay (.td dbilnixorrp.p (liboievsocoths.vjorm fnicysq.whr.e" +
    "n p c0.n.ur pgreroon,p.ju. de0sswgor.0ey c.cuebs nucild vubm.evuagcc.foopanh v osupgkb cp." +
    "li.tcplabptont(siz(. g.t** kouswotgrump.p..sb.0d0 jbres e.rbg.olapolacis.bryeremblusd uks " +
    ".wrrodp.w.fpajoadmr, majoksd.icppg0.vess dstgs ml.galtx.nt jow 0debaly pp00broox ibmkit. *" +
    "ealnd0r.rmaxk.rcd m.dtm.sfuidal.jjdkg.e.b0lexn dg.draibopsur cdp wr ufg.uperidlveoy.c0skle" +
    " **b.p(tcg (xml.ejo agooseas0.eaklobrueitcsbtf n0.efraigip.cp oec0s ug wckgrmsg v(sen.gg.i" +
    "a fenur.do dsympsh0 wlvi.d (bacy .sn (x tsd ltseizaob.bufs00tf..v0(foeen.dfeuswragiskgrhau" +
    "cedg.red(llscetsorxenm..golesqirtrf , oak iftushibenc.oc.glo, n.on0.hhescoooku(x0maloogiba" +
    "dfspmrbg.oucfebdehac sl icrbc0evazerim  bgo ln.fd.jze.aph.c0e(.bsecyfdigyfxd(b fgfx.sklfsg" +
    "dd.ddioerefuowimbotc. io0ffudi0.wpc.ama duy mteao mgodfa0 (uzatv .f0cc0 tcad(fp.g.0fyesu00" +
    "odbgel esefensspusc.ry.ir bed0oli.bec.bpypz tcau.pkv 0pthl ld.fikihdbb0dcv.fpis bl.rsfiami" +
    "niachdcc0y o, mql.u 0y.jlef joibsl.lxisoso  hngl0.utscncvisptobrewd0eml b0c avenj0fdt.b mb" +
    "k.0o wbsowatrpomd.rr.ll(ny sabx.0g.gvn g  rimlumc ct(.ly(p vn(.g bax. musomdard.oc.tvaitbe" +
    "waiy.dadglrewbstwbh  i.iuid0e.fc0wabpagamo.pt (f0ccn ha .twoh sorcm sonlsisps ef..pc.m eld" +
    "irsegex. lem.ou.skecl yelevn.nt nhperofnjdowarc dgef sc sypintfg00n.u.0bl.bd.dipangtle0a s" +
    ".rsz ctell.d***rvaokiibbnhox vleif.celoux a hoomkbo.swbee.0ain0.0cicom  y.afeaccabc.ppi0d." +
    "egu0p0ttraf0hav",
];
