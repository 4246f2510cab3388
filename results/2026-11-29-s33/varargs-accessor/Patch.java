import java.lang.classfile.*;
import java.lang.constant.*;
import java.lang.reflect.AccessFlag;
import java.nio.file.*;

/** Patch <in.class> <out.class>: sets ACC_VARARGS on the constructor taking one FileSystemProvider. */
public class Patch {
    public static void main(String[] a) throws Exception {
        byte[] in = Files.readAllBytes(Path.of(a[0]));
        ClassFile cf = ClassFile.of();
        ClassModel model = cf.parse(in);
        MethodTypeDesc target = MethodTypeDesc.of(ConstantDescs.CD_void, ClassDesc.of("java.nio.file.spi.FileSystemProvider"));
        byte[] out = cf.transformClass(model, (cb, ce) -> {
            if (ce instanceof MethodModel m && m.methodName().equalsString("<init>") && m.methodTypeSymbol().equals(target)) {
                cb.transformMethod(m, (mb, me) -> {
                    if (me instanceof AccessFlags f) {
                        mb.withFlags(f.flagsMask() | ClassFile.ACC_VARARGS);
                    } else {
                        mb.with(me);
                    }
                });
            } else {
                cb.with(ce);
            }
        });
        Files.write(Path.of(a[1]), out);
        System.out.println("patched " + a[0]);
    }
}
