//! SPEC §4.1: an image instruction's address VGPRs decoded into one lane's coordinates
//! ([`decode_vaddr`] to [`Coords`]: x, y, slice, mipid), by the layout of the T#'s type, DA, the
//! _MIP forms and A16.
//! Its public items are `crate::exec`'s.

use crate::tsharp;

/// One lane's image coordinates decoded from its address VGPRs (SPEC §4.1). Components the
/// layout lacks are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coords {
    pub x: u32,
    pub y: u32,
    /// The layer (§4.4): the array slice (0 with DA = 0), z for 3D, face_id for a cube.
    pub slice: u32,
    /// The _MIP forms' mipid; 0 otherwise.
    pub mipid: u32,
    /// Address VGPRs (dwords) the layout reads.
    pub dwords: usize,
}

/// One address component of SPEC §4.1's layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Component {
    X,
    Y,
    Z,
    FaceId,
    /// An array slice (DA = 1 on an array type).
    Slice,
    /// The slice component DA = 1 asks for on a non-array type: read and ignored.
    IgnoredSlice,
    MipId,
}

impl Component {
    fn name(self) -> &'static str {
        match self {
            Component::X => "x",
            Component::Y => "y",
            Component::Z => "z",
            Component::FaceId => "face_id",
            Component::Slice | Component::IgnoredSlice => "slice",
            Component::MipId => "mipid",
        }
    }
}

/// SPEC §4.1 (seed 000's table 36): the coordinates of one lane from its address VGPR values,
/// `vgprs[0]` = VADDR (with NSA: the listed VGPRs, in order). Extra values are ignored.
///
/// Layouts by type: 1D (x), 1D array (x, slice), 2D (x, y), 2D array (x, y, slice), 3D (x, y, z),
/// cube (x, y, face_id); the _MIP forms (`mip`) append mipid. DA = 0 reads no slice (slice = 0,
/// also on an array type); DA = 1 on 1D or 2D reads the slice component and ignores it. With
/// A16 every component is 16 bits, two per dword, low half first, zero-extended.
///
/// Decisions beyond SPEC §4.1: 3D's z and a cube's face_id are coordinates, read whatever DA
/// (DA does not add a component to them); a cube with DA = 0 uses slice 0, i.e. face_id mod 6
/// (the face). Unbound (type < 8) and MSAA types have no layout here and give an error, as does
/// a list too short for the layout (naming the missing components).
pub fn decode_vaddr(kind: u8, da: bool, mip: bool, a16: bool, vgprs: &[u32]) -> Result<Coords, String> {
    use Component::*;
    let kind = kind & 0xf;
    // The layout (at most x, y, slice or z or face_id, mipid: four components).
    let mut layout = [X; 4];
    let mut len = 0;
    let mut push = |c| {
        layout[len] = c;
        len += 1;
    };
    push(X);
    match kind {
        tsharp::TYPE_1D | tsharp::TYPE_1D_ARRAY => {}
        tsharp::TYPE_2D | tsharp::TYPE_2D_ARRAY | tsharp::TYPE_3D | tsharp::TYPE_CUBE => push(Y),
        _ => {
            return Err(format!(
                "image type {kind} ({}) has no address layout (unbound or MSAA types are not modelled)",
                tsharp::type_name(kind)
            ))
        }
    }
    match kind {
        tsharp::TYPE_3D => push(Z),
        tsharp::TYPE_CUBE => push(FaceId),
        tsharp::TYPE_1D_ARRAY | tsharp::TYPE_2D_ARRAY if da => push(Slice),
        _ if da => push(IgnoredSlice),
        _ => {}
    }
    if mip {
        push(MipId);
    }
    let layout = &layout[..len];

    // Component i: its own dword, or with A16 half (i mod 2) of dword i / 2, low half first.
    let dwords = if a16 { len.div_ceil(2) } else { len };
    if vgprs.len() < dwords {
        let missing: Vec<String> = layout
            .iter()
            .enumerate()
            .filter(|&(i, _)| (if a16 { i / 2 } else { i }) >= vgprs.len())
            .map(|(i, c)| {
                if a16 {
                    format!("{} (VGPR {}, bits {})", c.name(), i / 2, if i % 2 == 0 { "15:0" } else { "31:16" })
                } else {
                    format!("{} (VGPR {i})", c.name())
                }
            })
            .collect();
        let names: Vec<&str> = layout.iter().map(|c| c.name()).collect();
        return Err(format!(
            "a {} image with DA {}, MIP {}, A16 {} needs {dwords} address VGPR(s) for ({}), got {}: missing {}",
            tsharp::type_name(kind),
            u8::from(da),
            u8::from(mip),
            u8::from(a16),
            names.join(", "),
            vgprs.len(),
            missing.join(", "),
        ));
    }
    let component = |i: usize| if a16 { (vgprs[i / 2] >> (16 * (i % 2))) & 0xffff } else { vgprs[i] };

    let mut coords = Coords { dwords, ..Coords::default() };
    for (i, &c) in layout.iter().enumerate() {
        let value = component(i);
        match c {
            X => coords.x = value,
            Y => coords.y = value,
            Z | Slice => coords.slice = value,
            // face_id = slice * 6 + face; DA = 0 keeps the face and uses slice 0.
            FaceId => coords.slice = if da { value } else { value % 6 },
            IgnoredSlice => {}
            MipId => coords.mipid = value,
        }
    }
    Ok(coords)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsharp::{TYPE_1D, TYPE_1D_ARRAY, TYPE_2D, TYPE_2D_ARRAY, TYPE_2D_MSAA, TYPE_3D, TYPE_CUBE};

    /// SPEC §4.1 / seed 000 table 36, one row at a time, with DA as the type wants it and not:
    /// `(type, DA, MIP, [x, y, slice, mipid, dwords])`. VGPR values are distinct so the test sees
    /// which one went where; a failing row names its type and flags.
    #[test]
    fn decode_vaddr_layouts() {
        let v = [10, 20, 30, 40, 50];
        let rows: &[(u8, bool, bool, [u32; 5])] = &[
            // load: 1D (x), 1D array (x, slice), 2D (x, y), 2D array (x, y, slice), 3D (x, y,
            // z), cube (x, y, face_id); DA = 1 where the type is an array (and cube, which
            // ignores DA for reading face_id).
            (TYPE_1D, false, false, [10, 0, 0, 0, 1]),
            (TYPE_1D_ARRAY, true, false, [10, 0, 20, 0, 2]),
            (TYPE_2D, false, false, [10, 20, 0, 0, 2]),
            (TYPE_2D_ARRAY, true, false, [10, 20, 30, 0, 3]),
            (TYPE_3D, false, false, [10, 20, 30, 0, 3]),
            (TYPE_CUBE, true, false, [10, 20, 30, 0, 3]),
            // load_mip appends mipid after the last coordinate.
            (TYPE_1D, false, true, [10, 0, 0, 20, 2]),
            (TYPE_1D_ARRAY, true, true, [10, 0, 20, 30, 3]),
            (TYPE_2D, false, true, [10, 20, 0, 30, 3]),
            (TYPE_2D_ARRAY, true, true, [10, 20, 30, 40, 4]),
            (TYPE_3D, false, true, [10, 20, 30, 40, 4]),
            (TYPE_CUBE, true, true, [10, 20, 30, 40, 4]),
            // DA = 0 on an array type: no slice is read (slice 0) and mipid moves up. DA = 1
            // on a non-array type: the slice is read (it takes a VGPR) and ignored.
            (TYPE_2D_ARRAY, false, true, [10, 20, 0, 30, 3]),
            (TYPE_1D_ARRAY, false, false, [10, 0, 0, 0, 1]),
            (TYPE_2D, true, true, [10, 20, 0, 40, 4]),
            (TYPE_1D, true, true, [10, 0, 0, 30, 3]),
            // 3D: z is a coordinate, read whatever DA.
            (TYPE_3D, true, false, [10, 20, 30, 0, 3]),
        ];
        for &(kind, da, mip, [x, y, slice, mipid, dwords]) in rows {
            let want = Coords { x, y, slice, mipid, dwords: dwords as usize };
            assert_eq!(decode_vaddr(kind, da, mip, false, &v), Ok(want), "type {kind} da {da} mip {mip}");
        }
    }

    /// Cube: face_id = slice·6 + face. face_id 15 = cube 2, face 3: DA = 1 keeps 15; DA = 0 uses
    /// slice 0, face 3.
    #[test]
    fn decode_vaddr_cube_face_id() {
        let v = [1, 2, 15, 4];
        assert_eq!(decode_vaddr(TYPE_CUBE, true, true, false, &v).map(|c| (c.slice, c.mipid)), Ok((15, 4)));
        assert_eq!(decode_vaddr(TYPE_CUBE, false, true, false, &v).map(|c| (c.slice, c.mipid)), Ok((3, 4)));
    }

    /// A16: 16-bit components, two per dword, low half first, zero-extended. 2D array MIP with
    /// DA: x = 0x0001, y = 0xfffe in dword 0; slice = 0x0003, mipid = 0x8004 in dword 1.
    /// 3D without MIP: three components in two dwords, the high half of dword 1 unread.
    #[test]
    fn decode_vaddr_a16() {
        let v = [0xfffe_0001, 0x8004_0003];
        let o = decode_vaddr(TYPE_2D_ARRAY, true, true, true, &v);
        assert_eq!(o, Ok(Coords { x: 1, y: 0xfffe, slice: 3, mipid: 0x8004, dwords: 2 }));
        let o = decode_vaddr(TYPE_3D, false, false, true, &[0x0002_0001, 0xdead_0003]);
        assert_eq!(o, Ok(Coords { x: 1, y: 2, slice: 3, mipid: 0, dwords: 2 }));
        let o = decode_vaddr(TYPE_1D, false, false, true, &[0xffff_1234]);
        assert_eq!(o, Ok(Coords { x: 0x1234, dwords: 1, ..Coords::default() }));
    }

    /// Errors name what is missing; unbound and MSAA types have no layout.
    #[test]
    fn decode_vaddr_errors() {
        let e = decode_vaddr(TYPE_2D_ARRAY, true, true, false, &[1, 2]).unwrap_err();
        assert_eq!(
            e,
            "a 2D array image with DA 1, MIP 1, A16 0 needs 4 address VGPR(s) for (x, y, slice, mipid), got 2: \
             missing slice (VGPR 2), mipid (VGPR 3)"
        );
        let e = decode_vaddr(TYPE_CUBE, true, true, true, &[1]).unwrap_err();
        assert!(e.ends_with("got 1: missing face_id (VGPR 1, bits 15:0), mipid (VGPR 1, bits 31:16)"), "{e}");
        assert!(decode_vaddr(TYPE_2D, false, false, false, &[])
            .unwrap_err()
            .ends_with("missing x (VGPR 0), y (VGPR 1)"));
        assert!(decode_vaddr(TYPE_2D_MSAA, false, false, false, &[1, 2, 3]).unwrap_err().contains("2D MSAA"));
        assert!(decode_vaddr(0, false, false, false, &[1, 2, 3]).unwrap_err().contains("unbound"));
    }
}
